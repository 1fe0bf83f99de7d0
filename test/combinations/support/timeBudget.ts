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
  MODEL_CHECK_TIMEOUT_MS,
  timeoutOf,
} from './combination.js';
import type { Ledger } from './ledger.js';

/**
 * The budget: each hung call lasts at most its timeout (no timeout: only the deadline ends it),
 * each asked-for wait its length, under the deadline; a pipeline stage runs its loop afresh
 * after a crash (if it may) or a person's `pipeline.retry`, each time with a deadline of its own,
 * and a hung cross-check or router model check lasts its time limit.
 */
export function runBudgetMs(
  c: Combination,
  ledger: Ledger,
  run: { crashes: number; reruns: number },
): number {
  const { hangs, waitsMs } = ledger.time;
  let hung = 0;
  let checks = 0;
  for (const kind of hangs) {
    if (kind === 'crossCheck') checks += CROSS_CHECK_TIMEOUT_MS;
    else if (kind === 'modelCheck') checks += MODEL_CHECK_TIMEOUT_MS;
    else hung += timeoutOf(c, kind) ?? Number.POSITIVE_INFINITY;
  }
  const loops = c.host === 'pipeline' ? 1 + run.crashes + run.reruns : 1;
  const deadline = (deadlineOf(c) ?? Number.POSITIVE_INFINITY) * loops;
  return Math.min(deadline, hung + waitsMs) + checks;
}
