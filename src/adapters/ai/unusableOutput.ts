import { type NoObjectGeneratedError, TypeValidationError } from 'ai';
import type { NeverAccepted } from '../../core/vocabulary/outcome.js';
import { type SchemaIssue, toSchemaIssues } from '../schemaValidator/schemaIssues.js';

const MAX_TEXT = 20_000;

/**
 * A model reply the adapter could not use: it did not match the schema, did not parse, held no
 * output, or was a refusal. It is the attempt's candidate, so the validator can answer with a
 * verdict (a reask) instead of the step failing; it carries the reply's text and the issues.
 */
export interface UnusableOutput extends NeverAccepted {
  /** The brand, a plain field so it survives a checkpoint's JSON (a symbol key would not). */
  readonly loopchart: 'unusable-output';
  readonly kind: 'schema_mismatch' | 'unparsable' | 'no_output' | 'refusal';
  /** The reply's text (bounded), what the reask shows the model it said. */
  readonly text: string;
  readonly message: string;
  readonly finishReason: string | undefined;
  /** The schema's issues, for a `schema_mismatch`. */
  readonly issues: readonly SchemaIssue[];
}

/**
 * True for a candidate that is an unusable model reply rather than the generated value.
 * @example if (outcome.status === 'terminate_with_partial' && isUnusableOutput(outcome.partial)) log(outcome.partial.text);
 */
export function isUnusableOutput(value: unknown): value is UnusableOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { loopchart?: unknown }).loopchart === 'unusable-output'
  );
}

export function unusableOutput(
  kind: UnusableOutput['kind'],
  text: string | undefined,
  message: string,
  finishReason: string | undefined,
  issues: readonly SchemaIssue[] = [],
): UnusableOutput {
  return Object.freeze({
    loopchart: 'unusable-output' as const,
    kind,
    text: (text ?? '').slice(0, MAX_TEXT),
    message,
    finishReason,
    issues,
  });
}

/** A `NoObjectGeneratedError` as the unusable reply it reports. */
export function fromNoObject(error: NoObjectGeneratedError, refused: boolean): UnusableOutput {
  const { text, finishReason } = error;
  if (refused) return unusableOutput('refusal', text, refusalMessage(text), finishReason);
  const cause = error.cause;
  if (TypeValidationError.isInstance(cause)) {
    const issues = issuesOf(cause.cause);
    if (issues.length > 0) return unusableOutput('schema_mismatch', text, '', finishReason, issues);
  }
  return unusableOutput(
    'unparsable',
    text,
    'The reply is not valid JSON. Reply with one JSON value only, no prose and no code fences.',
    finishReason,
  );
}

export function refusalMessage(text: string | undefined): string {
  const said = (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
  return `The model refused to answer${said ? `: "${said}"` : ''}.`;
}

function issuesOf(zodError: unknown): SchemaIssue[] {
  const issues = (zodError as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? toSchemaIssues(issues.slice(0, 100)) : [];
}
