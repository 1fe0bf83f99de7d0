/**
 * The clock seam: code that waits reads the `Clock` it is given (the monotonic one in
 * production), so a test can drive time by hand, and a wall clock set anywhere changes nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/core/vocabulary/clock.js';
import { monotonicClock } from '../../src/core/vocabulary/clock.js';
import { withTimeLimit } from '../../src/core/vocabulary/withTimeLimit.js';
import { track } from './support/hangingStore.js';

/** A clock moved only by `advance`, firing its timers in order. */
function handClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  let timers: { at: number; fire: () => void }[] = [];
  return {
    now: () => now,
    after(ms, fire) {
      const timer = { at: now + ms, fire };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fire();
    },
  };
}

/** One turn of the event loop: every promise callback due by now has run. */
const settledTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the clock seam', () => {
  it('a time limit counts on the clock it is given, not on the wall clock', async () => {
    const clock = handClock();
    const limited = track(
      withTimeLimit(() => new Promise(() => {}), {
        ms: 1000,
        timeout: () => new Error('too slow'),
        clock,
      }),
    );
    vi.setSystemTime(Date.now() + 3_600_000); // the wall clock jumps: nothing happens
    clock.advance(999);
    await settledTurn();
    expect(limited.settled).toBe(false);
    clock.advance(1);
    await settledTurn();
    expect(String(limited.error)).toBe('Error: too slow');
    vi.useRealTimers();
  });

  it('the monotonic clock waits in slices past setTimeout’s 24.8-day limit instead of firing at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let fired = false;
      monotonicClock.after(30 * 86_400_000, () => {
        fired = true;
      });
      vi.advanceTimersByTime(29 * 86_400_000);
      expect(fired).toBe(false);
      vi.advanceTimersByTime(86_400_000);
      expect(fired).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
