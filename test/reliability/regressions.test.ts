import {
  clarificationRequest,
  emptyResult,
  type LoopConfig,
  type LoopOutcome,
  runLoop,
  withCost,
} from 'loopchart';
import { describe, expect, it } from 'vitest';
import { toJsonSafe } from '../../src/tools/viewer/toJsonSafe.js';
import { errorWithThrowingMessage, hostileProxy } from './support/hostileValues.js';

// Each test pins one bug the reliability suite found (B1–B5, C1, C2, V3) or a hook it asked for (G1);
// RELIABILITY.md lists them with their fixes.

const valid = { valid: true };
const correctable = { valid: false, error: { severity: 'correctable' as const, message: 'again' } };
const never = () => new Promise<never>(() => {});

/** runLoop's promise, or 'still running' if it has not settled after `ms`. */
async function settleWithin(run: Promise<LoopOutcome>, ms = 5_000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      run.then(
        (outcome) => ({ outcome }),
        (error: unknown) => ({ rejected: String((error as Error)?.message ?? error) }),
      ),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve('still running'), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('B1: an abort reason whose getters throw (abortOnSignal.ts abortReason)', () => {
  it('already aborted: runLoop resolves as aborted instead of rejecting', async () => {
    const controller = new AbortController();
    controller.abort(hostileProxy());
    const result = await settleWithin(
      runLoop({ attempt: never, validate: () => valid }, 'x', { signal: controller.signal }),
    );
    expect(result).toMatchObject({ outcome: { status: 'aborted' } });
  });

  it('aborted later: the loop ends as aborted (before the fix: an uncaught exception, and it never ended)', async () => {
    const controller = new AbortController();
    const run = runLoop({ attempt: never, validate: () => valid }, 'x', {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(errorWithThrowingMessage()), 5);
    expect(await settleWithin(run)).toMatchObject({ outcome: { status: 'aborted' } });
  });
});

describe('B2: step results read inside an assign (loopUpdates.acceptAttempt)', () => {
  const asking = (request: Parameters<typeof clarificationRequest>[0]): LoopConfig => ({
    attempt: () => clarificationRequest(request),
    validate: () => valid,
  });

  it('a clarification whose options are not an array (an LLM gave {}) does not reject runLoop', async () => {
    const run = runLoop(asking({ question: 'which?', options: {} as never }), 'x', {
      signal: AbortSignal.timeout(20),
    });
    expect(await settleWithin(run)).toMatchObject({ outcome: { status: expect.any(String) } });
  });

  it('a clarification whose question cannot become a string does not reject runLoop', async () => {
    const question = { toString: () => hostileProxy() as never } as unknown as string;
    const run = runLoop(asking({ question }), 'x', { signal: AbortSignal.timeout(20) });
    expect(await settleWithin(run)).toMatchObject({ outcome: { status: expect.any(String) } });
  });

  it('an empty result forged with a non-string reason still gives empty.reason as a string', async () => {
    const reason = { self: {} as unknown };
    reason.self = reason;
    const forged = { [Symbol.for('loopchart.stepResult')]: 'empty', reason };
    const outcome = await runLoop({ attempt: () => forged, validate: () => valid }, 'x');
    expect(outcome.status === 'empty' && typeof outcome.empty.reason).toBe('string');
    expect(() => JSON.stringify(outcome)).not.toThrow();
  });
});

describe('B3: a thrown object forged as a FailureRecord (failures.ts isFailureRecord)', () => {
  it('is classified like any thrown value, not trusted: no proceed with a made-up candidate', async () => {
    const forged = {
      [Symbol.for('loopchart.FailureRecord')]: true,
      step: 'nope',
      kind: 'weird',
      effect: 'none',
      message: { not: 'a string' },
    };
    const validated: unknown[] = [];
    const outcome = await runLoop(
      {
        attempt: () => {
          throw forged;
        },
        validate: (candidate) => {
          validated.push(candidate);
          return valid;
        },
        retryDelayMs: 0,
      },
      'x',
    );
    expect(validated).toEqual([]);
    expect(outcome.status).toBe('permanent_failure');
  });
});

describe('B4: summed cost overflows to Infinity (loopUpdates: cost: context.cost + cost)', () => {
  it('two finite costs keep outcome.cost finite (JSON turns Infinity into null)', async () => {
    const outcome = await runLoop(
      { attempt: () => withCost('a', 1e308), validate: () => withCost(valid, 1e308) },
      'x',
    );
    expect(Number.isFinite(outcome.cost)).toBe(true);
  });
});

describe('B5 and C1: a signal aborted before the run (stepActors.ts, runLoop.ts)', () => {
  it('never calls the attempt, and counts no attempt (SPEC §3: attempt invocations)', async () => {
    let calls = 0;
    const controller = new AbortController();
    controller.abort('closed');
    const outcome = await runLoop(
      {
        attempt: () => {
          calls += 1;
          return 'draft';
        },
        validate: () => valid,
      },
      'x',
      { signal: controller.signal },
    );
    expect(outcome.status).toBe('aborted');
    expect(calls).toBe(0);
    expect(outcome.attempts).toBe(0);
  });
});

describe('V3: toJsonSafe (src/tools/viewer/toJsonSafe.ts)', () => {
  it('copies an own __proto__ key as data instead of making it the copy’s prototype', () => {
    const copy = toJsonSafe(JSON.parse('{"__proto__":{"status":"proceed"},"a":1}')) as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"status":"proceed"},"a":1}');
  });
});

describe('G1: every step has a timeout (stepTimeoutMs defaults to attemptTimeoutMs)', () => {
  it('a validator that never settles still ends the loop once the timeout passes', async () => {
    const run = runLoop(
      { attempt: () => 'draft', validate: never, attemptTimeoutMs: 20, retryDelayMs: 0 },
      'x',
    );
    expect(await settleWithin(run)).toMatchObject({ outcome: { status: expect.any(String) } });
  });
});

describe('C1: outcome.attempts counts attempt invocations (SPEC §3)', () => {
  it('a loop aborted synchronously right after runLoop was called counts only attempts that ran', async () => {
    let calls = 0;
    const controller = new AbortController();
    const run = runLoop(
      {
        attempt: () => {
          calls += 1;
          return new Promise<string>(() => {});
        },
        validate: () => valid,
      },
      'x',
      { signal: controller.signal },
    );
    controller.abort('closed at once');
    const outcome = await run;
    expect(outcome.status).toBe('aborted');
    expect(outcome.attempts).toBe(calls);
  });
});

describe("C2: the fallback's value reaches the outcome by identity", () => {
  it('even when it is a step result only an attempt may return (emptyResult)', async () => {
    const returned = emptyResult('nothing to fall back to');
    const outcome = await runLoop<string, unknown>(
      { attempt: () => 'a', validate: () => correctable, maxRetries: 0, fallback: () => returned },
      'x',
    );
    expect(outcome.status).toBe('fallback');
    expect(outcome.status === 'fallback' && outcome.candidate).toBe(returned);
  });
});

describe('B6: a step result read more than once (stepActors.ts, loopUpdates.ts)', () => {
  /** A forged cost result whose `cost` is 2 when first read and NaN after. */
  const fickle = (value: unknown): never => {
    let reads = 0;
    // forged on purpose: withCost would freeze a plain cost
    return {
      [Symbol.for('loopchart.stepResult')]: 'cost',
      value,
      get cost() {
        reads += 1;
        return reads === 1 ? 2 : Number.NaN;
      },
    } as never;
  };

  it('counts the cost the step actor checked, once per step, for every step', async () => {
    const outcome = await runLoop(
      {
        attempt: ({ attempt }) => fickle(`draft ${attempt}`),
        validate: (draft) => fickle(draft === 'draft 2' ? valid : correctable),
        refine: ({ input }) => fickle(input),
        maxRetries: 1,
      },
      'x',
    );
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'draft 2', attempts: 2 });
    // attempt, validate, refine, attempt, validate: five steps at 2 each
    expect(outcome.cost).toBe(10);
  });
});
