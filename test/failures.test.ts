import {
  type LoopConfig,
  type LoopOutcome,
  permanentFailure,
  policyRejection,
  runLoop,
  type StepContext,
  transientFailure,
  uncertainSideEffect,
} from 'loopchart';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { correctable, counted, valid } from './support/scriptedSteps.js';

const failingAttempt = (...failures: unknown[]) =>
  counted((n, _ctx: StepContext<string>) =>
    n <= failures.length ? Promise.reject(failures[n - 1]) : `draft ${n}`,
  );

function run(config: Partial<LoopConfig<string, string>>): Promise<LoopOutcome<string>> {
  return runLoop<string, string>(
    { attempt: () => 'draft', validate: () => valid, retryDelayMs: 0, ...config },
    'task',
  );
}

describe('failures are classified before anything is retried', () => {
  it('a policy rejection runs the attempt exactly once and stops as policy_stop', async () => {
    const attempt = failingAttempt(
      policyRejection('the user may not send email'),
      policyRejection('again'),
    );
    const outcome = await run({ attempt, idempotent: true });
    expect(attempt.calls).toBe(1);
    expect(outcome.status).toBe('policy_stop');
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      state: 'attempting',
      cause: { step: 'attempt', kind: 'policy', message: 'the user may not send email' },
    });
  });

  it('a permanent failure runs the attempt exactly once', async () => {
    const attempt = failingAttempt(permanentFailure('no such invoice'), 'unused');
    const outcome = await run({ attempt, idempotent: true });
    expect(attempt.calls).toBe(1);
    expect(outcome).toMatchObject({ status: 'permanent_failure', attempts: 1 });
  });

  it('a transient failure with no effect is retried once with the same key; a second ends retry_exhausted', async () => {
    const attempt = failingAttempt(
      transientFailure('503', { effect: 'none' }),
      transientFailure('503 again', { effect: 'none' }),
    );
    const outcome = await run({ attempt });
    expect(attempt.calls).toBe(2);
    const [first, second] = attempt.args.map(([ctx]) => ctx);
    expect(first?.key).toMatch(/^[0-9a-f]{64}$/);
    expect(second?.key).toBe(first?.key);
    expect([first?.attempt, second?.attempt]).toEqual([1, 2]);
    expect(outcome).toMatchObject({ status: 'retry_exhausted', attempts: 2 });
    if (!outcome.ok) expect(outcome.error.message).toMatch(/after its one retry/);
  });

  it('a success after the one transient retry is an intermittent success in the trace', async () => {
    const attempt = failingAttempt(transientFailure('rate limited', { effect: 'none' }));
    const outcome = await run({ attempt });
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 2, candidate: 'draft 2' });
    const attempts = outcome.trace.filter((entry) => entry.state === 'attempting');
    expect(attempts.map((entry) => [entry.failureKind, entry.intermittent])).toEqual([
      ['transient', undefined],
      [undefined, true],
    ]);
    expect(outcome.trace.some((entry) => entry.decision === 'retry')).toBe(true);
  });

  it('a transient failure with unknown effect on a non-idempotent step ends unknown_outcome after one call', async () => {
    const attempt = failingAttempt(transientFailure('socket closed mid-request'), 'unused');
    const outcome = await run({ attempt });
    expect(attempt.calls).toBe(1);
    expect(outcome.status).toBe('unknown_outcome');
  });

  it('the same failure on an idempotent step is retried once', async () => {
    const attempt = failingAttempt(transientFailure('socket closed mid-request'));
    const outcome = await run({ attempt, idempotent: { attempt: true } });
    expect(attempt.calls).toBe(2);
    expect(outcome.status).toBe('proceed');
  });

  it('an uncertain side effect is unknown_outcome unless the step is idempotent', async () => {
    const uncertain = () => uncertainSideEffect('payment request timed out after sending');
    const once = failingAttempt(uncertain(), 'unused');
    expect((await run({ attempt: once })).status).toBe('unknown_outcome');
    expect(once.calls).toBe(1);
    const idempotent = failingAttempt(uncertain(), uncertain());
    expect((await run({ attempt: idempotent, idempotent: true })).status).toBe('retry_exhausted');
    expect(idempotent.calls).toBe(2);
  });

  it.each([
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['a frozen object', Object.freeze({ code: 42 })],
    [
      'an object whose getters throw',
      Object.defineProperties(new Error('x'), {
        message: {
          get: () => {
            throw new Error('getter');
          },
        },
        name: {
          get: () => {
            throw new Error('getter');
          },
        },
      }),
    ],
  ])(
    'an untyped thrown value (%s) ends as permanent_failure without a crash',
    async (_label, thrown) => {
      const attempt = counted(() => {
        throw thrown;
      });
      const outcome = await run({ attempt, idempotent: true });
      expect(attempt.calls).toBe(1);
      expect(outcome.status).toBe('permanent_failure');
      if (!outcome.ok) expect(outcome.error.cause?.kind).toBe('permanent');
      expect(() => JSON.stringify(outcome)).not.toThrow();
    },
  );
});

describe('retry delays, timeouts and the classifier', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the delay the failure asks for before the retry', async () => {
    vi.useFakeTimers();
    const attempt = failingAttempt(transientFailure('429', { effect: 'none', retryAfterMs: 5000 }));
    const outcome = run({ attempt, retryDelayMs: 10 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(attempt.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt.calls).toBe(2);
    expect((await outcome).status).toBe('proceed');
  });

  it('uses retryDelayMs when the failure names no delay', async () => {
    vi.useFakeTimers();
    const attempt = failingAttempt(transientFailure('flaky', { effect: 'none' }));
    const outcome = run({ attempt, retryDelayMs: 300 });
    await vi.advanceTimersByTimeAsync(299);
    expect(attempt.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await outcome).status).toBe('proceed');
  });

  it('refuses to wait longer than maxRetryDelayMs and says so', async () => {
    const attempt = failingAttempt(
      transientFailure('429', { effect: 'none', retryAfterMs: 90_000 }),
    );
    const outcome = await run({ attempt, maxRetryDelayMs: 60_000 });
    expect(attempt.calls).toBe(1);
    expect(outcome.status).toBe('retry_exhausted');
    expect(outcome.rationale).toContain('90000 ms');
  });

  it('an attempt that times out is transient with unknown effect, and its signal is aborted', async () => {
    const signals: AbortSignal[] = [];
    const hang = counted((_n, ctx: { signal: AbortSignal }) => {
      signals.push(ctx.signal);
      return new Promise<string>(() => {});
    });
    const once = await run({ attempt: hang, attemptTimeoutMs: 15 });
    expect(once.status).toBe('unknown_outcome');
    expect(hang.calls).toBe(1);
    expect(signals[0]?.aborted).toBe(true);
    if (!once.ok)
      expect(once.error.cause).toMatchObject({ name: 'LoopAttemptTimeout', kind: 'transient' });

    const twice = await run({ attempt: hang, attemptTimeoutMs: 15, idempotent: true });
    expect(twice.status).toBe('retry_exhausted');
    expect(hang.calls).toBe(3);
  });

  it('classifyFailure can make an untyped error retryable, defer to the default, or fail safe', async () => {
    const rateLimited = Object.assign(new Error('Too Many Requests'), { status: 429 });
    const classify = (error: unknown) =>
      (error as { status?: number }).status === 429
        ? ({ kind: 'transient', effect: 'none', retryAfterMs: 0 } as const)
        : undefined;
    const attempt = failingAttempt(rateLimited);
    expect((await run({ attempt, classifyFailure: classify })).status).toBe('proceed');
    expect(attempt.calls).toBe(2);

    const typed = failingAttempt(policyRejection('denied'));
    expect((await run({ attempt: typed, classifyFailure: classify })).status).toBe('policy_stop');

    const broken = failingAttempt(rateLimited);
    const outcome = await run({
      attempt: broken,
      classifyFailure: () => {
        throw new Error('classifier bug');
      },
    });
    expect(outcome.status).toBe('permanent_failure');
    expect(outcome.rationale).toContain('classifier bug');
  });

  it('a transient retry that would pass the ceiling stops as ceiling_stop instead', async () => {
    const attempt = failingAttempt(transientFailure('503', { effect: 'none' }));
    const outcome = await run({ attempt, maxAttempts: 1 });
    expect(attempt.calls).toBe(1);
    expect(outcome).toMatchObject({ status: 'ceiling_stop', attempts: 1 });
  });
});

describe('failures of validate, refine and fallback', () => {
  it('a validator that fails transiently is retried once without a new attempt', async () => {
    const attempt = counted(() => 'draft');
    const validate = counted((n) =>
      n === 1 ? Promise.reject(transientFailure('judge overloaded', { effect: 'none' })) : valid,
    );
    const outcome = await run({ attempt, validate });
    expect([attempt.calls, validate.calls]).toEqual([1, 2]);
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 1 });
  });

  it('a validator is idempotent by default: an unknown-effect transient failure is retried once', async () => {
    const failing = () =>
      counted((n) => (n === 1 ? Promise.reject(transientFailure('judge timed out')) : valid));
    const byDefault = failing();
    expect((await run({ validate: byDefault })).status).toBe('proceed');
    expect(byDefault.calls).toBe(2);
    const declared = failing();
    expect((await run({ validate: declared, idempotent: { validate: false } })).status).toBe(
      'unknown_outcome',
    );
    expect(declared.calls).toBe(1);
  });

  it('an infrastructure failure of the validator never becomes refine feedback', async () => {
    const attempt = counted((_n, ctx: StepContext<string>) => String(ctx.feedback));
    const validate = () => Promise.reject(new Error('rate limit exceeded'));
    const outcome = await run({ attempt, validate });
    expect(outcome.status).toBe('permanent_failure');
    expect(attempt.calls).toBe(1);
    expect(attempt.args[0]?.[0].feedback).toBeUndefined();
  });

  it('a refine that is denied stops as policy_stop', async () => {
    const outcome = await run({
      validate: () => correctable('shorter'),
      refine: () => Promise.reject(policyRejection('prompt rewrite blocked by guardrail')),
    });
    expect(outcome.status).toBe('policy_stop');
    if (!outcome.ok)
      expect(outcome.error).toMatchObject({ state: 'refining', cause: { step: 'refine' } });
  });

  it('a failed fallback ends as iteration_exhausted naming the fallback', async () => {
    const fallback = counted(() => Promise.reject(permanentFailure('backup model is down')));
    const outcome = await run({
      maxRetries: 1,
      validate: counted((n) => correctable(`try ${n}`)),
      fallback,
    });
    expect(fallback.calls).toBe(1);
    expect(outcome.status).toBe('iteration_exhausted');
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      state: 'fallingBack',
      cap: 1,
      cause: { step: 'fallback', message: 'backup model is down' },
    });
  });

  it('a step that reports an invalid cost fails permanently, naming the cost', async () => {
    const { withCost } = await import('loopchart');
    for (const cost of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      const outcome = await run({ attempt: () => withCost('draft', cost) });
      expect(outcome.status).toBe('permanent_failure');
      expect(outcome.rationale).toContain(`reported cost ${cost}`);
    }
  });
});
