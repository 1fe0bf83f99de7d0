import { afterEach, beforeEach, vi } from 'vitest';
import { unhandledRejections } from './rows.js';

/**
 * Every test of the file runs on simulated time: fake timers fake `performance` and `Date`
 * apart, so a test can jump the wall clock and drive the monotonic one without sleeping. After
 * each test no rejection may have gone unhandled.
 */
export function simulatedTime(): void {
  const unhandled = unhandledRejections();
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await unhandled.check();
  });
}
