import { GRACE_MS } from '../../core/chart/deadline.js';
import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import type { AnswerSchemas } from '../../core/vocabulary/AnswerSchemas.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { checkWithSchema, type StandardSchemaV1 } from '../../core/vocabulary/standardSchema.js';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';

const LOOP_EVENT_TYPES: ReadonlySet<string> = new Set<LoopEvent['type']>([
  'loop.abort',
  'review.continue',
  'review.modify',
  'review.retry',
  'review.abort',
  'clarification.answer',
]);

/**
 * Checks an answer to a paused run before anything else happens: its shape (an object with a
 * known `type` and the fields that type needs), a clarification's `options`, and the config's
 * answer schemas. Returns the event rebuilt from its known fields; throws `CheckpointError`
 * `invalid_answer` naming the problem, so nothing was saved and the run is still answerable.
 * A schema check is part of the run's live time: one that has not answered within `withinMs`
 * (the run's time left; `null`: no deadline) refuses the answer too.
 * @example const event = await checkAnswer('r1', { type: 'review.continue' }, paused.pending);
 */
export async function checkAnswer(
  runId: string,
  answer: unknown,
  pending: PendingRequest | undefined,
  schemas: AnswerSchemas = {},
  withinMs: number | null = null,
): Promise<LoopEvent> {
  const refuse = (why: string) =>
    new CheckpointError(
      'invalid_answer',
      runId,
      `loopchart: answer to run '${runId}' refused: ${why}`,
    );
  let fields: Record<string, unknown>;
  try {
    fields = ownFields(answer);
  } catch {
    throw refuse('its properties cannot be read');
  }
  const { type } = fields;
  if (typeof type !== 'string' || !LOOP_EVENT_TYPES.has(type)) {
    throw refuse(
      `${describeValue(type, 60)} is not an answer type (${[...LOOP_EVENT_TYPES].join(', ')})`,
    );
  }
  const text = (key: string) => {
    const value = fields[key];
    if (value !== undefined && typeof value !== 'string') {
      throw refuse(`${type}'s ${key} must be a string, not ${describeValue(value, 60)}`);
    }
    return value === undefined ? {} : { [key]: value };
  };
  const checked = async (key: string, schema: StandardSchemaV1 | undefined) => {
    if (!schema) return fields[key];
    const check = () => checkWithSchema(schema, fields[key]);
    const timeout = () =>
      refuse(
        `${type}'s ${key} could not be checked: the config's schema did not answer within the run's time left (${withinMs} ms of deadlineMs) and half a second more`,
      );
    const result = await (withinMs === null
      ? check()
      : withTimeLimit(check, { ms: withinMs + GRACE_MS, timeout }));
    if (!result.ok)
      throw refuse(`${type}'s ${key} fails the config's schema: ${result.issues.join('; ')}`);
    return result.value;
  };
  switch (type) {
    case 'loop.abort':
    case 'review.abort':
      return { type, ...text('reason') };
    case 'review.retry':
      return { type, ...text('feedback') };
    case 'review.continue':
      return { type };
    case 'review.modify': {
      const hasInput = 'input' in fields;
      const hasCandidate = 'candidate' in fields;
      if (hasInput === hasCandidate) {
        throw refuse(
          `review.modify takes either an input (attempt again from it) or a candidate (validate it), ${hasInput ? 'not both' : 'and has neither'}`,
        );
      }
      return hasInput
        ? { type, input: await checked('input', schemas.input) }
        : { type, candidate: await checked('candidate', schemas.candidate) };
    }
    default: {
      if (!('answer' in fields)) throw refuse('clarification.answer has no answer');
      const options = pending?.kind === 'clarification' ? pending.options : undefined;
      if (options?.length && !options.includes(fields.answer as string)) {
        throw refuse(
          `${describeValue(fields.answer, 60)} is not one of the question's options (${options.map((o) => JSON.stringify(o)).join(', ')})`,
        );
      }
      return {
        type: 'clarification.answer',
        answer: await checked('answer', schemas.clarification),
      };
    }
  }
}

/** The own enumerable fields of a plain object; throws for anything else. */
function ownFields(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('not an object');
  }
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(fields, key, {
      value: (value as Record<string, unknown>)[key],
      enumerable: true,
    });
  }
  return fields;
}
