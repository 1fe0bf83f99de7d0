/**
 * How long a combination may run, from its config alone. A step that cannot hang returns at once,
 * so a run's live time is its retry waits and the steps that may hang, each cut by its timeout,
 * all of it capped by `deadlineMs` (one budget across pauses, answers and crashes: a pause keeps
 * what is left, downtime counts). The property adds a slack per call into loopchart for the work
 * around the waits (saves, restores, the harness's own reads) and reports the margin it used.
 */
import {
  type Combination,
  CROSS_CHECK_TIMEOUT_MS,
  canHang,
  deadlineOf,
  hasRefine,
  RETRY_DELAY_MS,
  type Step,
  timeoutOf,
} from './combination.js';

/** The bounds one run of the loop has (an agent's single-shot: 1 attempt, no refine, no fallback). */
export interface LoopBounds {
  maxAttempts: number;
  maxRetries: number;
  fallback: boolean;
  /** Answers that resumed the run: a `review.modify` candidate is validated without an attempt. */
  answers: number;
}

/**
 * The most live time one run of the loop can take: attempts (transient retries included) ≤
 * maxAttempts; a validation per attempt or edited candidate and a refine per cycle, each at most
 * twice (one transient retry); the fallback once; plus the step in flight at a crash run again.
 * A hang lasts its timeout; each call may be followed by one retry wait.
 */
export function loopBudgetMs(c: Combination, bounds: LoopBounds): number {
  const calls: Record<Step, number> = {
    attempt: bounds.maxAttempts + 1,
    validate: 2 * (bounds.maxAttempts + bounds.answers) + 1,
    refine: hasRefine(c) ? 2 * bounds.maxRetries + 1 : 0,
    fallback: bounds.fallback ? 2 : 0,
  };
  let work = 0;
  let waits = 0;
  for (const step of Object.keys(calls) as Step[]) {
    waits += calls[step] * longestWaitMs(c);
    if (calls[step] > 0 && canHang(c, step))
      work += calls[step] * (timeoutOf(c, step) ?? Number.POSITIVE_INFINITY);
  }
  return Math.min(deadlineOf(c) ?? Number.POSITIVE_INFINITY, work + waits);
}

/** The longest retry wait the steps can ask for: `retryDelayMs`, or a 429's `retry-after-ms`. */
function longestWaitMs(c: Combination): number {
  const limited = c.steps === 'model' && c.model.replies.includes('rateLimited');
  return Math.max(RETRY_DELAY_MS, limited ? c.model.retryAfterMs : 0);
}

/**
 * The whole run's budget: a pipeline stage runs its loop afresh after a crash (if it may) or a
 * person's `pipeline.retry`, each with a deadline of its own, and a hung cross-check lasts its
 * time limit each time its layer settles.
 */
export function runBudgetMs(
  c: Combination,
  bounds: LoopBounds,
  run: { crashes: number; reruns: number },
) {
  const loop = loopBudgetMs(c, bounds);
  if (c.host !== 'pipeline') return loop;
  const runs = 1 + run.crashes + run.reruns;
  const check =
    c.pipeline.shape === 'layer' && c.pipeline.crossCheck === 'hang' ? CROSS_CHECK_TIMEOUT_MS : 0;
  return runs * (loop + check);
}
