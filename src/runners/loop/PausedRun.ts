import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopView } from '../../core/chart/loopView.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';

/**
 * A checkpointed run that waits for a person: `pending` is the question or the review request.
 * Nothing runs meanwhile; continue it, from this process or another, with
 * `resumeLoop(config, { store, runId, event })`.
 */
export interface PausedRun<C = unknown> {
  status: 'paused';
  ok: false;
  runId: string;
  /**
   * The checkpoint number that holds this pause. Pass it as `resumeLoop`'s `ifSeq` so an answer
   * applies to this pause only, not to a later one (a double-click, a stale browser tab).
   */
  seq: number;
  /** `awaitingReview` or `awaitingClarification`. */
  state: string;
  /** What the person is asked: a clarification question, or a review of a candidate of type `C`. */
  pending: PendingRequest<C>;
  iterations: number;
  attempts: number;
  cost: number;
  trace: TraceEntry[];
}

/** What a checkpointed run resolves to: its outcome, or a pause for a person. */
export type RunResult<C = unknown> = LoopOutcome<C> | PausedRun<C>;

export function pausedRun<C>(runId: string, seq: number, view: LoopView): PausedRun<C> {
  return {
    status: 'paused',
    ok: false,
    runId,
    seq,
    state: view.phase,
    pending: view.pending as PendingRequest<C>,
    iterations: view.iterations,
    attempts: view.attempts,
    cost: view.cost,
    trace: view.trace as TraceEntry[],
  };
}

/**
 * True when a run result is a pause, not an outcome.
 * @example const result = await runLoop(config, input, { store });
 *          if (isPausedRun(result)) askUser(result.pending); else use(result);
 */
export function isPausedRun<C>(result: RunResult<C>): result is PausedRun<C> {
  return result.status === 'paused';
}
