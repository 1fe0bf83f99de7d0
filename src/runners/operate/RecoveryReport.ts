import type { StepName } from '../../core/vocabulary/failures.js';
import type { CheckpointErrorCode } from '../../stores/kit/CheckpointError.js';

/** What `recoverRuns` did with each working run it found. */
export interface RecoveryReport {
  /** Resumed once, to its end (`status` is the outcome's) or next pause (`paused`). */
  resumed: { runId: string; machineId: string; status: string }[];
  /** Parked with a non-idempotent step in flight (`inFlight: 'park'`), for `reconcileRun`. */
  parked: { runId: string; machineId: string; step: StepName }[];
  /** Held by a live writer (until `expiresAt`), or taken by another recoverer first. */
  stillClaimed: { runId: string; owner?: string; expiresAt?: number }[];
  /** Stored under a machine id that is neither among the loops nor the pipelines given. */
  unknownLoop: { runId: string; machineId: string }[];
  /** Could not be resumed: a corrupt row, another definition, a failed save… */
  refused: { runId: string; code: CheckpointErrorCode | 'error'; message: string }[];
}
