import type { Clock } from '../../core/vocabulary/clock.js';

interface Timer {
  at: number;
  order: number;
  fire: () => void;
}

/** A run's time in executed mode: it stands still until `fireNext` moves it to the next timer. */
export class SimulatedClock implements Clock {
  #now: number;
  #order = 0;
  #timers: Timer[] = [];
  /** Timers fired so far. */
  firings = 0;

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  after(ms: number, fire: () => void): () => void {
    const timer = { at: this.#now + Math.max(0, ms), order: this.#order++, fire };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((other) => other !== timer);
    };
  }

  /** When the next timer is due, or `undefined` for none. */
  nextAt(): number | undefined {
    return this.#earliest()?.at;
  }

  /** Moves time to the next timer (never past `limit`) and fires it; false when none is due by then. */
  fireNext(limit = Number.POSITIVE_INFINITY): boolean {
    const next = this.#earliest();
    if (!next || next.at > limit) return false;
    this.#timers = this.#timers.filter((other) => other !== next);
    this.#now = Math.max(this.#now, next.at);
    this.firings += 1;
    next.fire();
    return true;
  }

  /** Moves time to `at` (never back), firing nothing. */
  moveTo(at: number): void {
    this.#now = Math.max(this.#now, at);
  }

  #earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.#timers) {
      if (!best || timer.at < best.at || (timer.at === best.at && timer.order < best.order))
        best = timer;
    }
    return best;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const realMs = () => globalThis.performance.now();

/** Real time a run may wait on nothing (no timer, no settle) before it counts as hung. */
export const HANG_MS = 5_000;
/** Real time a step of your code may take (real I/O, say) before simulated time moves past it. */
export const REAL_STEP_MS = 1_000;

/**
 * Awaits `run` on simulated time: whenever the process is idle (two turns of the event loop
 * with the run unsettled, and no step of your code in flight for less than `realStepMs`) the
 * clock moves to its next timer. A run waiting on no timer for `HANG_MS` of real time can never
 * settle: it rejects, saying so.
 */
export async function settleOnClock<T>(
  run: Promise<T>,
  clock: SimulatedClock,
  realStepInFlight: () => boolean = () => false,
  realStepMs = REAL_STEP_MS,
): Promise<T> {
  let settled = false;
  run.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  let idleSince: number | undefined;
  let busySince: number | undefined;
  while (!settled) {
    await turn();
    await turn();
    if (settled) break;
    if (realStepInFlight()) {
      busySince ??= realMs();
      if (realMs() - busySince < realStepMs) continue;
    } else busySince = undefined;
    if (clock.fireNext()) {
      idleSince = undefined;
      continue;
    }
    idleSince ??= realMs();
    if (realMs() - idleSince > HANG_MS)
      throw new Error(
        `the run hung: it waited ${HANG_MS} ms of real time on something no timer of the loop could end (a step that never settles, with no timeout or deadline to stop it)`,
      );
  }
  return run;
}

/**
 * Lets the process go idle, then fires every timer due by `until` (the grace after an abort),
 * giving calls still `open` up to `realStepMs` of real time to wind down first.
 */
export async function runClockUntil(
  clock: SimulatedClock,
  until: number,
  open: () => boolean = () => false,
  realStepMs = REAL_STEP_MS,
): Promise<void> {
  const since = realMs();
  do {
    await turn();
    await turn();
  } while (open() && realMs() - since < realStepMs);
  while (clock.fireNext(until)) {
    await turn();
    await turn();
  }
  clock.moveTo(until);
  await turn();
}
