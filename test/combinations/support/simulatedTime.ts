/**
 * Simulated time for the combination suite (issue 31): every timer the runs set (step timeouts,
 * retry waits, deadlines, aborts, claim renewals, a store that answers late) is a fake timer, and
 * `Date` and `performance` are fake clocks apart, so the wall clock can jump without moving the
 * monotonic one. Time moves only when nothing else can: no real I/O in flight (a store call on
 * SQLite or Postgres), no callback due. A run that is neither settled nor waiting on any timer or
 * I/O can never settle: that is a hang, found at once instead of by a timeout.
 */
import { vi } from 'vitest';

/** Real I/O in flight (store calls; see stores.ts): simulated time stands still meanwhile. */
export const io = { pending: 0 };

/** The one wall-clock guard: no run takes this long in real time, however loaded the machine. */
export const WALL_GUARD_MS = 30_000;
/** Real ms a run may wait on nothing at all before it counts as hung. */
const IDLE_MS = 2_000;
/** No generated run lives this long in simulated time (the longest budget is a few seconds). */
export const SIMULATED_GUARD_MS = 120_000;
/** Nor needs more timer firings than this (a step-count bound on the waiting itself). */
export const MAX_TIMER_FIRINGS = 5_000;

export class Hang extends Error {}

export function startSimulatedTime(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
}

export function stopSimulatedTime(): void {
  vi.useRealTimers();
}

/** Simulated monotonic time, in ms. */
export const simulatedNow = () => globalThis.performance.now();

const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const realMs = () => Number(process.hrtime.bigint() / 1_000_000n);

/**
 * Awaits `run`, moving simulated time to the next timer whenever the process has nothing else to
 * do; rejects with `Hang` when the run can never settle or passes a guard. `firings` counts the
 * timers fired for it.
 */
export async function drive<T>(run: Promise<T>): Promise<{ value: T; firings: number }> {
  const state: { settled: boolean; value?: T; error?: unknown; failed?: boolean } = {
    settled: false,
  };
  run.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, failed: true, error }),
  );
  const wallStart = realMs();
  const simStart = simulatedNow();
  let firings = 0;
  let idleSince: number | undefined;
  while (!state.settled) {
    await realTurn();
    await realTurn();
    if (state.settled) break;
    if (realMs() - wallStart > WALL_GUARD_MS)
      throw new Hang(`not settled after ${WALL_GUARD_MS} ms of real time`);
    if (io.pending > 0) continue;
    if (vi.getTimerCount() === 0) {
      // a module loading, or other real work the harness does not count, may still end it
      idleSince ??= realMs();
      if (realMs() - idleSince > IDLE_MS)
        throw new Hang(`not settled, and waiting on nothing (no timer, no I/O) for ${IDLE_MS} ms`);
      continue;
    }
    idleSince = undefined;
    if (++firings > MAX_TIMER_FIRINGS)
      throw new Hang(`not settled after ${MAX_TIMER_FIRINGS} timers fired`);
    if (simulatedNow() - simStart > SIMULATED_GUARD_MS)
      throw new Hang(`not settled after ${SIMULATED_GUARD_MS} ms of simulated time`);
    vi.advanceTimersToNextTimer();
  }
  if (state.failed) throw state.error;
  return { value: state.value as T, firings };
}
