import { isCheckpointError } from '../../stores/kit/CheckpointError.js';

const BRAND = Symbol.for('loopchart.DbosRunError');

/** Why a request about a run on DBOS was refused; nothing was sent to the run. */
export const DBOS_RUN_ERROR_CODES = ['not_found', 'not_waiting', 'refused'] as const;
export type DbosRunErrorCode = (typeof DBOS_RUN_ERROR_CODES)[number];

/**
 * A refused request about a loop or pipeline workflow: no such workflow (`not_found`), it does not
 * wait for that answer now (`not_waiting`: finished, working, or at another pause), or the answer
 * itself is malformed (`refused`). The run is unchanged and still answerable.
 */
export class DbosRunError extends Error {
  override readonly name = 'DbosRunError';
  readonly code: DbosRunErrorCode;
  readonly runId: string;
  readonly [BRAND] = true;

  constructor(code: DbosRunErrorCode, runId: string, message: string) {
    super(message);
    this.code = code;
    this.runId = runId;
  }
}

/**
 * True for a `DbosRunError`, even one thrown by another copy of loopchart.
 * @example if (isDbosRunError(e) && e.code === 'not_waiting') showAlreadyAnswered();
 */
export function isDbosRunError(error: unknown): error is DbosRunError {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/** A `CheckpointError` refusing an answer as the `DbosRunError` DBOS callers get. */
export function refused(runId: string) {
  return (error: unknown): never => {
    if (!isCheckpointError(error) || error.code !== 'invalid_answer') throw error;
    throw new DbosRunError('refused', runId, error.message);
  };
}
