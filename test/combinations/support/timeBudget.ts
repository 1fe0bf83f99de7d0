/**
 * How long a run may take, from its config and what its steps did (counted on the steps, not read
 * from loopchart): a step that does not hang returns at once, so a run's live time is the retry
 * waits its failures asked for and its hung calls, each cut by its timeout, all of it capped by
 * `deadlineMs` (one budget across pauses, answers and crashes: a pause keeps what is left,
 * downtime counts). The property adds the time spent in the store and a small slack per call.
 */
import {
  type Combination,
  CROSS_CHECK_TIMEOUT_MS,
  deadlineOf,
  type Step,
  timeoutOf,
} from './combination.js';
import type { Ledger } from './ledger.js';

/**
 * The budget: each hung call lasts at most its timeout (no timeout: only the deadline ends it),
 * each asked-for wait its length, under the deadline; a pipeline stage runs its loop afresh
 * after a crash (if it may) or a person's `pipeline.retry`, each time with a deadline of its own,
 * and a hung cross-check lasts its time limit.
 */
export function runBudgetMs(
  c: Combination,
  ledger: Ledger,
  run: { crashes: number; reruns: number },
): number {
  const { hangs, waitsMs } = ledger.time;
  const steps = hangs.filter((step): step is Step => step !== 'crossCheck');
  const hung = steps.reduce(
    (sum, step) => sum + (timeoutOf(c, step) ?? Number.POSITIVE_INFINITY),
    0,
  );
  const loops = c.host === 'pipeline' ? 1 + run.crashes + run.reruns : 1;
  const deadline = (deadlineOf(c) ?? Number.POSITIVE_INFINITY) * loops;
  const checks = (hangs.length - steps.length) * CROSS_CHECK_TIMEOUT_MS;
  return Math.min(deadline, hung + waitsMs) + checks;
}
