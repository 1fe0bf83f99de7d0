import type { StepName } from '../vocabulary/failures.js';
import type { LoopStatus } from '../vocabulary/statuses.js';
import type { StepOutcome } from './loopMoves.js';

/** One step call of a worst-case path: what it came to, and what it spent. */
export interface PathStep {
  step: StepName;
  outcome: StepOutcome;
  /** The cost the call reports on this path (0 for a failed or refused call). */
  cost: number;
  /** How long the call takes on this path (`null`: it never returns; the deadline ends it). */
  ms: number | null;
  /** The retry wait that follows it, in ms. */
  waitMs?: number;
}

/** A worst case and a path of the chart that reaches it. */
export interface Bound {
  /** `null`: nothing bounds it (the reason says what is missing). */
  value: number | null;
  path: PathStep[];
  /** Where the path ends (for time, a path may run past the deadline, which ends it). */
  status: LoopStatus;
  reason?: string;
}

/** The metrics a certificate bounds. */
export type CallKind = StepName | 'total' | 'model';

/**
 * A loop's worst case over every path of its chart (SPEC §15): sound (no run goes beyond a
 * bound) and tight (the path beside each bound reaches it).
 */
export interface LoopCertificate {
  kind: 'loop';
  id: string;
  /** Step calls, transient retries included; `model` sums the steps named as model calls. */
  calls: Record<CallKind, Bound>;
  /** The cost a run reports (`outcome.cost`). */
  cost: Bound;
  /** Live wall-clock time: steps and retry waits; pauses for a person are not counted. */
  timeMs: Bound;
  /** A run can pause for a person (a clarification, a review); pause time is unbounded by design. */
  pauses: 'none' | 'unbounded-by-design';
  /** What the bounds take as given. */
  assumptions: string[];
}

/** What a certificate reads besides the chart: per-call ceilings of cost and time. */
export interface CertifyOptions {
  /** The worst-case cost of one call of each step (default: the config's `costEstimates`). */
  costs?: Partial<Record<StepName, number>>;
  /** The worst-case duration of one call of each step in ms (default: its timeout). */
  durations?: Partial<Record<StepName, number>>;
  /** The steps that call a model (default: attempt, refine, fallback). */
  modelSteps?: readonly StepName[];
}
