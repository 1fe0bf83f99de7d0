import type { FailureCause, StepName } from './failures.js';
import type { LoopStatus, OkStatus, StopStatus } from './statuses.js';
import type { TraceEntry } from './trace.js';

/** An operation on the store a run waited on when its deadline ran out. */
export interface PendingOperation {
  operation: 'save';
  /** The checkpoint whose save had not answered. */
  checkpoint: number;
  /** The last checkpoint the store acknowledged (0: none in this drive, nor before it). */
  lastSaved: number;
}

/** Why a loop stopped without an ok result: every non-ok outcome carries one. */
export interface LoopError {
  kind: StopStatus;
  /** The machine state the loop was in when it stopped (`routing`, `attempting`, …). */
  state: string;
  /** The bound that was hit: `maxRetries`, `maxAttempts`, `maxCost`, `stall.after`, or `'deadlineMs'`. */
  cap?: number | 'deadlineMs';
  /** For a deadline stop: the step that was in flight (aborted through its signal), or `null`. */
  inFlight?: StepName | null;
  /** For a deadline stop: whether the step in flight may have acted before it was aborted. */
  mayHaveActed?: boolean;
  /**
   * For a deadline stop while loopchart itself waited on the store: the save still pending, and
   * the last checkpoint the store acknowledged (the outcome itself is then not saved).
   */
  waitingFor?: PendingOperation;
  attempts: number;
  lastOutput?: unknown;
  message: string;
  /** The repeated fingerprint, for `stalled`. */
  fingerprint?: string;
  /** What failed and how it was classified, with the failure's JSON-safe facts (status, retry headers, code, usage). */
  cause?: FailureCause;
}

export interface OutcomeFields<S extends LoopStatus> {
  status: S;
  ok: S extends OkStatus ? true : false;
  /** Refine cycles performed. */
  iterations: number;
  /** Attempt invocations, transient retries included. */
  attempts: number;
  cost: number;
  rationale: string;
  trace: TraceEntry[];
}

/**
 * A candidate that no validator accepts, so it never ends a loop as `proceed`: `loopchart/ai`'s
 * `UnusableOutput` (a model reply that missed its schema, or a refusal), whose validator always
 * rejects it. A `proceed` candidate's type leaves it out.
 */
export interface NeverAccepted {
  readonly loopchart: 'unusable-output';
}

/**
 * How a loop ended (SPEC §3): a union tagged by `status`, so success, ceiling and empty never blur.
 * On `proceed` the candidate is one the validator accepted: `C` without `NeverAccepted` values.
 */
export type LoopOutcome<C = unknown> =
  | (OutcomeFields<'proceed'> & { candidate: Exclude<C, NeverAccepted> })
  | (OutcomeFields<'fallback'> & { candidate: C; partial: C | undefined })
  | (OutcomeFields<'empty'> & { empty: { reason: string } })
  | {
      [S in StopStatus]: OutcomeFields<S> & { partial: C | undefined; error: LoopError };
    }[StopStatus];
