/**
 * The time that code which waits reads, and the timers it sets (SPEC §14: deadlines are measured
 * on a monotonic clock). `now()` is in ms since the epoch, so it can be persisted and read by
 * another process, but it advances monotonically: setting the system clock back or forward does
 * not move it. Production code uses `monotonicClock`; tests give a simulated one, or fake the
 * globals it reads (`performance`, `setTimeout`).
 */
export interface Clock {
  /** ms since the epoch on this process's monotonic clock. */
  now(): number;
  /** Calls `fire` once `ms` have passed; the function it returns cancels that. */
  after(ms: number, fire: () => void): () => void;
}

/**
 * `performance.timeOrigin + performance.now()`: the wall-clock time this process started plus
 * the monotonic time since. Within a process it never jumps; across processes it converts
 * through each process's start, which is the wall clock's reading then (RELIABILITY.md, "Time").
 * The globals are read at each call, so fake timers that replace them take effect.
 */
export const monotonicClock: Clock = {
  now: () => globalThis.performance.timeOrigin + globalThis.performance.now(),
  after: (ms, fire) => {
    if (!(ms <= MAX_TIMER_MS)) return afterLong(ms, fire);
    const timer = setTimeout(fire, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

// setTimeout fires at once for a delay past 2^31 - 1 ms (~24.8 days): wait in slices instead
function afterLong(ms: number, fire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const wait = (left: number) => {
    timer = setTimeout(
      () => (left > MAX_TIMER_MS ? wait(left - MAX_TIMER_MS) : fire()),
      Math.min(Math.max(0, left), MAX_TIMER_MS),
    );
  };
  wait(ms);
  return () => clearTimeout(timer);
}

const MAX_TIMER_MS = 2_147_483_647;
