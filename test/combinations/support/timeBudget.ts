/**
 * How long a run may take in simulated time, from its config and what its steps and its store did
 * (counted on them, not read from loopchart): a step that does not hang returns at once, so a
 * run's live time is the retry waits its failures asked for, its hung calls, each cut by its
 * timeout, and its store's late answers, all of it capped by `deadlineMs` (one budget across
 * pauses, answers and crashes: a pause keeps what is left, downtime counts), which a store call
 * pending at the deadline may pass by the grace SPEC §14 gives it. Simulated time does not move
 * while code runs, so the budget is exact: no slack for a loaded machine.
 */
import {
  type Combination,
  CROSS_CHECK_TIMEOUT_MS,
  deadlineOf,
  MODEL_CHECK_TIMEOUT_MS,
  timeoutOf,
} from './combination.js';
import type { Ledger } from './ledger.js';

/** How long past the deadline loopchart waits for a store call or an answer check (SPEC §14). */
export const GRACE_MS = 500;

/**
 * The budget: each hung call lasts at most its timeout (no timeout: only the deadline ends it),
 * each asked-for wait its length, each late store answer its delay, under the deadline (plus a
 * grace for each store fault); a pipeline stage runs its loop afresh after a crash (if it may) or
 * a person's `pipeline.retry`, each time with a deadline of its own; a hung cross-check or router
 * model check lasts its time limit; a pipeline's save that answers late or never lasts at most its
 * stage loops' deadline and the grace; a loop's save that never answers lasts at most the run's time left
 * and the grace, a load or an answer check the run's whole time and the grace (a late load its
 * delay, up to that).
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
  const whole = deadlineOf(c) ?? Number.POSITIVE_INFINITY;
  const { store } = ledger;
  // a load comes before the row that says how much time is left (a paused run's clock thaws
  // after it): a late one waits outside the deadline, one that never answers, or answers later
  // than the whole budget and the grace, times out there (and a first load that timed out left
  // nothing saved: the run starts afresh, with a deadline of its own)
  const lateLoads = store.lateLoadsMs;
  const loadWaits = lateLoads.reduce((sum, ms) => sum + Math.min(ms, whole + GRACE_MS), 0);
  const lateCalls = store.lateCalls - lateLoads.length;
  const lateMs = store.lateMs - lateLoads.reduce((sum, ms) => sum + ms, 0);
  const saveHangs = store.hangs - store.loadHangs;
  const storeWaits = lateMs + saveHangs * (whole + GRACE_MS);
  const pipeline = c.host === 'pipeline';
  const loops = pipeline ? 1 + run.crashes + run.reruns : 1;
  // a pipeline's own record save has a time limit of its own (its stage loops' longest deadline
  // and the grace) that starts when the save does, after the stage's loop may have spent its time
  const perWait = pipeline ? whole + GRACE_MS : GRACE_MS;
  const deadline =
    whole * loops + perWait * (saveHangs + lateCalls) + GRACE_MS * store.thrown.length;
  const outside = (ledger.schemaHangs + store.loadHangs) * (whole + GRACE_MS) + loadWaits;
  return Math.min(deadline, hung + waitsMs + storeWaits) + checks + outside;
}
