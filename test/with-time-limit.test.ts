import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withLazySignal, withTimeLimit } from '../src/core/vocabulary/withTimeLimit.js';

// The one timeout race behind step timeouts, the cross-check, the model check, the testing kit's
// real steps and the battery's runs.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const late = () => new Error('too slow');

describe('withTimeLimit', () => {
  it('settles as the call does, calls it at once, and leaves no timer behind', async () => {
    let called = false;
    const result = withTimeLimit(
      async () => {
        called = true;
        return 'done';
      },
      { ms: 1000, timeout: late },
    );
    expect(called).toBe(true);
    await expect(result).resolves.toBe('done');
    expect(vi.getTimerCount()).toBe(0);
    await expect(
      withTimeLimit(
        () => {
          throw new Error('boom');
        },
        { ms: 1000, timeout: late },
      ),
    ).rejects.toThrow('boom');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('past ms rejects with the timeout and aborts the call, even one that ignores its signal', async () => {
    let seen: AbortSignal | undefined;
    const result = withTimeLimit(
      (signal) => {
        seen = signal;
        return new Promise(() => {});
      },
      { ms: 50, timeout: late },
    );
    const settled = expect(result).rejects.toThrow('too slow');
    await vi.advanceTimersByTimeAsync(49);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toHaveProperty('message', 'too slow');
  });

  it("the caller's signal aborts the call with its reason and rejects at once, and is let go after", async () => {
    const parent = new AbortController();
    let seen: AbortSignal | undefined;
    const result = withTimeLimit(
      (signal) => {
        seen = signal;
        return new Promise(() => {});
      },
      { ms: 60_000, timeout: late, signal: parent.signal },
    );
    parent.abort('shutting down');
    await expect(result).rejects.toBe('shutting down');
    expect(seen?.reason).toBe('shutting down');
    expect(vi.getTimerCount()).toBe(0);

    const before = AbortSignal.abort('gone');
    await expect(
      withTimeLimit(() => new Promise(() => {}), { ms: 10, timeout: late, signal: before }),
    ).rejects.toBe('gone');

    const kept = new AbortController();
    const remove = vi.spyOn(kept.signal, 'removeEventListener');
    await withTimeLimit(() => 1, { ms: 10, timeout: late, signal: kept.signal });
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});

// A step that never reads ctx.signal gets none: no AbortController, and no timer or listener when
// it settles at once; the limit still holds for one that does not.
describe('withLazySignal', () => {
  it('a call that never asks for its signal and settles at once sets no timer and adds no listener', async () => {
    const parent = new AbortController();
    const add = vi.spyOn(parent.signal, 'addEventListener');
    await expect(
      withLazySignal(async () => 'done', { ms: 1000, timeout: late, signal: parent.signal }),
    ).resolves.toBe('done');
    expect(add).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('one that never asks for its signal and hangs still times out at ms', async () => {
    const result = withLazySignal(() => new Promise(() => {}), { ms: 50, timeout: late });
    const settled = expect(result).rejects.toThrow('too slow');
    await vi.advanceTimersByTimeAsync(49);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
  });

  it('a signal asked for after the limit stopped the call comes aborted with the same reason', async () => {
    let ask: (() => AbortSignal) | undefined;
    const result = withLazySignal(
      (signal) => {
        ask = signal;
        return new Promise(() => {});
      },
      { ms: 50, timeout: late },
    );
    const settled = expect(result).rejects.toThrow('too slow');
    await vi.advanceTimersByTimeAsync(50);
    await settled;
    expect(ask?.().aborted).toBe(true);
    expect(ask?.().reason).toHaveProperty('message', 'too slow');
  });

  it("the caller's abort that lands before the call's result is seen wins, heard or not", async () => {
    const parent = new AbortController();
    const result = withLazySignal(() => Promise.resolve('done'), {
      ms: 1000,
      timeout: late,
      signal: parent.signal,
    });
    parent.abort('shutting down');
    await expect(result).rejects.toBe('shutting down');
    expect(vi.getTimerCount()).toBe(0);
  });
});
