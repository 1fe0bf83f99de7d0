import { describeValue } from '../../core/vocabulary/describeValue.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import type { CheckpointRecord } from './CheckpointStore.js';

const BRAND = Symbol.for('loopchart.CheckpointError');

/** Why a checkpoint could not be used or written. */
export const CHECKPOINT_ERROR_CODES = [
  'not_found',
  'corrupt',
  'unknown_version',
  'other_machine',
  'conflict',
  'save_failed',
  'not_waiting',
  'invalid_answer',
  'store_timeout',
] as const;
export type CheckpointErrorCode = (typeof CHECKPOINT_ERROR_CODES)[number];

/**
 * A store or checkpoint problem, never a step's misbehaviour: the checkpoint is missing, corrupt,
 * of an unknown format version or another machine's; another writer got there first; the store
 * failed to save (then no further step ran and `trace` holds the run so far); the store did not
 * answer within the run's deadline (`store_timeout`); or the run does not wait for the event sent
 * to it. The stored row is never changed by a refusal.
 */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
  readonly code: CheckpointErrorCode;
  readonly runId: string;
  /** The run's trace up to the failure (for `save_failed` and `conflict` during a run), else []. */
  readonly trace: readonly TraceEntry[];
  readonly [BRAND] = true;

  constructor(
    code: CheckpointErrorCode,
    runId: string,
    message: string,
    options: { trace?: readonly TraceEntry[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.runId = runId;
    this.trace = options.trace ?? [];
  }
}

/**
 * True for a `CheckpointError`, even one thrown by another copy of loopchart.
 * @example if (isCheckpointError(e) && e.code === 'save_failed') console.error(e.trace);
 */
export function isCheckpointError(error: unknown): error is CheckpointError {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/**
 * What a store's failure says, read without trusting it: a value whose every trap throws (or whose
 * `message` does) is described, never read, so reporting a failed save cannot fail itself.
 * @example const why = failureMessage(error);
 */
export function failureMessage(error: unknown): string {
  try {
    return String(error instanceof Error ? error.message : error);
  } catch {
    return describeValue(error);
  }
}

/**
 * The error a store rejects a save with when the save does not follow the stored `seq`.
 * @example if (changes === 0) throw checkpointConflict(record, storedSeq);
 */
export function checkpointConflict(record: CheckpointRecord, storedSeq: number): CheckpointError {
  const run = `run '${record.runId}'`;
  let why = `${run} is at checkpoint #${storedSeq}, not #${record.seq - 1}: another process is writing it`;
  if (record.seq === 1) {
    why = `${run} already has checkpoint #${storedSeq}; resume it with resumeLoop or start a new runId`;
  } else if (storedSeq === 0) {
    why = `${run} has no checkpoint (deleted?), so checkpoint #${record.seq} cannot follow one`;
  }
  return new CheckpointError('conflict', record.runId, `loopchart: ${why}`);
}

/**
 * The error for a store that did not answer a load (or a pipeline's save) within the time the
 * run had: nothing ran after it, and nothing it did not acknowledge is reported as saved.
 */
export function storeTimeout(
  runId: string,
  what: string,
  ms: number,
  budget = "the run's deadlineMs",
): CheckpointError {
  return new CheckpointError(
    'store_timeout',
    runId,
    `loopchart: the store did not answer ${what} of run '${runId}' within ${ms} ms (${budget}) and half a second more; nothing after it ran or is reported as saved`,
  );
}
