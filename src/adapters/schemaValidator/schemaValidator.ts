import { z } from 'zod';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { permanentFailure } from '../../core/vocabulary/failures.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { ValidationResult } from '../../core/vocabulary/validation.js';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';
import { extractJson } from './extractJson.js';
import {
  clean,
  describeIssues,
  parseIssue,
  type SchemaIssue,
  toSchemaIssues,
} from './schemaIssues.js';

/** Options of `schemaValidator`. */
export interface SchemaValidatorOptions {
  /**
   * Declares an issue fundamental: refining cannot fix it, so the loop stops with the partial
   * result. Called once per issue with the parsed JSON (undefined when it did not parse).
   */
  fundamental?: (issue: SchemaIssue, data: unknown) => boolean;
  /** How many issues the feedback message lists; `details.issues` holds them all (up to 100). */
  maxIssues?: number;
}

/** A loop `validate` step built from a zod schema, with `parse` to get the typed data back. */
export interface SchemaValidator<T> {
  (candidate: unknown): Promise<ValidationResult>;
  readonly schema: z.ZodType<T>;
  /** The candidate's data, checked by the schema; rejects with the feedback message if invalid. */
  parse(candidate: unknown): Promise<T>;
}

const optionsSchema = z.strictObject({
  fundamental: z
    .custom<NonNullable<SchemaValidatorOptions['fundamental']>>((v) => typeof v === 'function', {
      error: 'must be a function (issue, data) => boolean',
    })
    .optional(),
  maxIssues: z
    .number({ error: 'must be an integer from 1 to 100' })
    .int({ error: 'must be an integer from 1 to 100' })
    .min(1, { error: 'must be an integer from 1 to 100' })
    .max(100, { error: 'must be an integer from 1 to 100' })
    .optional(),
});

const MAX_DETAILED = 100;

type Checked<T> =
  | { valid: true; data: T }
  | { valid: false; issues: SchemaIssue[]; data: unknown; parsed: boolean };

/**
 * Turns a zod schema into a `validate` step for structured output (the reask pattern). The
 * candidate is an object, or model text holding JSON (a ```json block is found). JSON that does not
 * parse and schema issues are `correctable`, and the message names each issue's path, so the
 * default refine feeds them back to the next attempt; `options.fundamental` may declare some
 * issues `fundamental`. Errors thrown by the schema's own refinements, by `fundamental`, or an
 * `Error` passed as the candidate are failures (SPEC §2), never validation feedback.
 * @example const validate = schemaValidator(z.object({ name: z.string(), age: z.number() }));
 *          const outcome = await runLoop({ attempt: askModel, validate, maxRetries: 2 }, prompt);
 *          if (outcome.status === 'proceed') use(await validate.parse(outcome.candidate));
 */
export function schemaValidator<S extends z.ZodType>(
  schema: S,
  options: SchemaValidatorOptions = {},
): SchemaValidator<z.output<S>> {
  if (!isZodSchema(schema)) {
    throw new LoopConfigError(
      `loopchart: invalid schemaValidator arguments\n  - schema: must be a zod schema (received ${describeValue(schema)})`,
    );
  }
  const parsedOptions = optionsSchema.safeParse(options, { reportInput: true });
  if (!parsedOptions.success) {
    throw configErrorFrom('schemaValidator options', parsedOptions.error);
  }
  const { fundamental, maxIssues = 10 } = parsedOptions.data;

  async function check(candidate: unknown): Promise<Checked<z.output<S>>> {
    if (candidate instanceof Error) {
      throw permanentFailure(
        `the candidate is an Error (${clean(candidate.name)}), not output to validate: throw it from the step so it is classified as a failure`,
      );
    }
    let data: unknown = candidate;
    if (typeof candidate === 'string') {
      const found = extractJson(candidate);
      if (!found.ok) {
        return {
          valid: false,
          issues: [parseIssue(found.code, found.message)],
          data: undefined,
          parsed: false,
        };
      }
      data = found.value;
    }
    const result = await schema.safeParseAsync(data);
    if (result.success) return { valid: true, data: result.data };
    return { valid: false, issues: toSchemaIssues(result.error.issues), data, parsed: true };
  }

  const validate = async (candidate: unknown): Promise<ValidationResult> => {
    const checked = await check(candidate);
    if (checked.valid) return { valid: true };
    const issues = checked.issues.slice(0, MAX_DETAILED);
    const fundamentalIssues = fundamental
      ? issues.filter((issue) => fundamental(issue, checked.data) === true)
      : [];
    const severity = fundamentalIssues.length > 0 ? 'fundamental' : 'correctable';
    return {
      valid: false,
      error: {
        severity,
        message: feedback(checked, severity === 'fundamental' ? fundamentalIssues : issues),
        details: { issues },
      },
    };
  };

  function feedback(checked: { issues: SchemaIssue[]; parsed: boolean }, shown: SchemaIssue[]) {
    if (!checked.parsed) return shown[0]?.message ?? 'The reply holds no JSON value.';
    return describeIssues(shown, maxIssues);
  }

  return Object.assign(validate, {
    schema: schema as z.ZodType<z.output<S>>,
    async parse(candidate: unknown): Promise<z.output<S>> {
      const checked = await check(candidate);
      if (checked.valid) return checked.data;
      throw new TypeError(feedback(checked, checked.issues));
    },
  });
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParseAsync?: unknown }).safeParseAsync === 'function'
  );
}
