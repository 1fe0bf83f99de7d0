import type { FailureKind } from './failures.js';
import type { TraceDecision } from './statuses.js';

/** One step visit or one decision of a run (SPEC §5). JSON, persisted with the run. */
export interface TraceEntry {
  seq: number;
  state: string;
  iterationIndex: number;
  attempt: number;
  decision?: TraceDecision;
  retryCount: number;
  rationale?: string;
  key?: string;
  fingerprint?: string;
  failureKind?: FailureKind;
  /** A success right after a transient retry: the cause was intermittent, not fixed. */
  intermittent?: true;
  startedAt: number;
  durationMs: number;
  cost?: number;
}
