/**
 * The part of the Standard Schema spec (standardschema.dev, v1) loopchart reads: zod 4, valibot,
 * arktype and others implement it, so their schemas work as answer schemas without an adapter.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** True for a value that carries a Standard Schema v1 `~standard.validate`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const standard = (value as { '~standard'?: { version?: unknown; validate?: unknown } })[
    '~standard'
  ];
  return standard?.version === 1 && typeof standard.validate === 'function';
}

/**
 * Validates `value` against a Standard Schema: the (possibly transformed) value, or one line
 * per issue. A schema that throws counts as an issue, never as a crash.
 */
export async function checkWithSchema(
  schema: StandardSchemaV1,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; issues: string[] }> {
  let result: StandardResult<unknown>;
  try {
    result = await schema['~standard'].validate(value);
  } catch (error) {
    return { ok: false, issues: [`the schema threw: ${String(error).slice(0, 200)}`] };
  }
  if (!result.issues) return { ok: true, value: result.value };
  const issues = result.issues.slice(0, 10).map((issue) => {
    const path = (issue.path ?? [])
      .map((part) => String(typeof part === 'object' ? part.key : part))
      .join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return { ok: false, issues: issues.length ? issues : ['the schema refused it'] };
}
