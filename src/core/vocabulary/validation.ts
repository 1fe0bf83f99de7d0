import { z } from 'zod';
import { describeValue } from './describeValue.js';

const MAX_MESSAGE = 4000;

export const validationErrorSchema = z.object({
  severity: z.enum(['correctable', 'fundamental']),
  message: z.string().transform((m) => m.slice(0, MAX_MESSAGE)),
  details: z.unknown().optional(),
});

export const validationResultSchema = z.union([
  z.object({ valid: z.literal(true), details: z.unknown().optional() }),
  z.object({ valid: z.literal(false), error: validationErrorSchema.nullish() }),
]);

/** What a validator returns: SPEC §1. */
export type ValidationResult = z.input<typeof validationResultSchema>;
/** A validator's diagnostic: `correctable` errors are refined, `fundamental` ones end the loop. */
export type ValidationError = z.output<typeof validationErrorSchema>;

/** A validator's answer as the machine keeps it: parsed, or marked malformed. */
export type Verdict =
  | { valid: true; details?: unknown }
  | { valid: false; error?: ValidationError | null }
  | { valid: false; malformed: string };

/** Parses untrusted validator output; anything that is not a validation result is `malformed`. */
export function parseVerdict(raw: unknown): Verdict {
  let parsed: ReturnType<typeof validationResultSchema.safeParse>;
  try {
    const plain = plainVerdict(raw);
    if (plain) return plain;
    parsed = validationResultSchema.safeParse(raw);
  } catch {
    return { valid: false, malformed: 'its properties could not be read' };
  }
  if (parsed.success) return parsed.data as Verdict;
  return { valid: false, malformed: `got ${describeValue(raw, 120)}` };
}

const SEVERITIES: ReadonlySet<unknown> = new Set(['correctable', 'fundamental']);

/**
 * The two answers validators nearly always give, `{ valid: true }` and `{ valid: false, error: {
 * severity, message } }` as plain objects without `details`, read without zod: the same verdict
 * zod would give (unknown keys dropped, the message cut), at a fraction of its cost per iteration.
 * Anything else is left to the schema.
 */
function plainVerdict(raw: unknown): Verdict | undefined {
  if (!isPlainRecord(raw) || 'details' in raw) return undefined;
  const { valid } = raw;
  if (valid === true) return { valid: true };
  if (valid !== false) return undefined;
  const { error } = raw;
  if (!isPlainRecord(error) || 'details' in error) return undefined;
  const { severity, message } = error;
  if (!SEVERITIES.has(severity) || typeof message !== 'string') return undefined;
  return {
    valid: false,
    error: {
      severity: severity as ValidationError['severity'],
      message: message.slice(0, MAX_MESSAGE),
    },
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}
