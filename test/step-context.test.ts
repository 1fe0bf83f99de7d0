import { type LoopConfig, runLoop } from 'loopchart';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The ctx a step is called with makes its signal only when the step reads it (stepContext.ts):
// to the step it is the same frozen object with the same keys and a signal that works.

const KEYS = [
  'input',
  'feedback',
  'previous',
  'candidate',
  'partial',
  'error',
  'iteration',
  'attempt',
  'key',
  'answers',
  'budget',
  'signal',
];

afterEach(() => {
  vi.useRealTimers();
});

describe("a step's ctx", () => {
  it('is frozen, has the same keys in the same order, and spreads to a real signal', async () => {
    const seen: Record<string, unknown>[] = [];
    const config: LoopConfig<string, string> = {
      attempt: (ctx) => {
        seen.push(ctx as never);
        return 'draft';
      },
      validate: () => ({ valid: true }),
    };
    await runLoop(config, 'q');
    const [ctx] = seen as [Record<string, unknown>];
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(Object.keys(ctx)).toEqual(KEYS);
    const copy = { ...ctx };
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(ctx.signal).toBe(copy.signal);
    expect(() => JSON.stringify(ctx)).not.toThrow();
  });

  it('gives a step that reads its signal late one aborted by its timeout, with the reason', async () => {
    let read: (() => AbortSignal) | undefined;
    const config: LoopConfig<string, string> = {
      attemptTimeoutMs: 20,
      maxRetries: 0,
      attempt: (ctx) => {
        read = () => ctx.signal;
        return new Promise<string>(() => {});
      },
      validate: () => ({ valid: true }),
    };
    // simulated time: the timeout and the retry wait pass without waiting on the wall clock
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const running = runLoop(config, 'q');
    await vi.runAllTimersAsync();
    const outcome = await running;
    expect(outcome.ok).toBe(false);
    const signal = read?.();
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toMatch(/20 ?ms|timed out|timeout/i);
  });
});
