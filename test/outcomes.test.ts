import {
  emptyResult,
  LOOP_STATUSES,
  type LoopConfig,
  type LoopOutcome,
  type LoopStatus,
  policyRejection,
  runLoop,
  transientFailure,
  withCost,
} from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable, counted, fundamental, valid } from './support/scriptedSteps.js';

type Scenario = [LoopStatus, () => Promise<LoopOutcome<string>>];

const changing = () => counted((n) => correctable(`problem ${n}`));

const run = (
  config: Omit<LoopConfig<string, string>, 'attempt'> & Partial<LoopConfig<string, string>>,
) =>
  runLoop<string, string>(
    { attempt: counted((n) => `draft ${n}`), retryDelayMs: 0, ...config },
    'task',
  );

const scenarios: Scenario[] = [
  ['proceed', () => run({ validate: () => valid })],
  ['fallback', () => run({ maxRetries: 1, validate: changing(), fallback: () => 'safe answer' })],
  ['terminate_with_partial', () => run({ validate: () => fundamental('wrong plan') })],
  ['iteration_exhausted', () => run({ maxRetries: 2, validate: changing() })],
  [
    'stalled',
    () => run({ attempt: () => 'same', maxRetries: 5, validate: () => correctable('same') }),
  ],
  [
    'policy_stop',
    () =>
      run({ attempt: () => Promise.reject(policyRejection('not allowed')), validate: () => valid }),
  ],
  [
    'permanent_failure',
    () =>
      run({
        attempt: () => Promise.reject(new Error('404 no such record')),
        validate: () => valid,
      }),
  ],
  [
    'retry_exhausted',
    () =>
      run({
        attempt: () => Promise.reject(transientFailure('503', { effect: 'none' })),
        validate: () => valid,
      }),
  ],
  [
    'unknown_outcome',
    () =>
      run({
        attempt: () => Promise.reject(transientFailure('socket hang up')),
        validate: () => valid,
      }),
  ],
  ['ceiling_stop', () => run({ maxRetries: 5, maxAttempts: 2, validate: changing() })],
  [
    'budget_stop',
    () =>
      run({
        attempt: counted((n) => withCost(`draft ${n}`, 6)),
        maxCost: 10,
        validate: changing(),
      }),
  ],
  [
    'empty',
    () => run({ attempt: () => emptyResult('no matching records'), validate: () => valid }),
  ],
  [
    'aborted',
    () =>
      runLoop<string, string>(
        { attempt: () => new Promise<string>(() => {}), validate: () => valid },
        'task',
        { signal: AbortSignal.timeout(20) },
      ),
  ],
];

describe('every terminal status is reachable through runLoop', () => {
  it('covers all thirteen statuses', () => {
    expect(scenarios.map(([status]) => status).sort()).toEqual([...LOOP_STATUSES].sort());
  });

  it.each(scenarios)('%s', async (status, scenario) => {
    const outcome = await scenario();
    expect(outcome.status).toBe(status);
    expect(outcome.ok).toBe(['proceed', 'fallback', 'empty'].includes(status));
    expect(typeof outcome.rationale).toBe('string');
    expect(outcome.rationale.length).toBeGreaterThan(10);
    expect(outcome.trace.length).toBeGreaterThan(0);
    expect(() => JSON.stringify(outcome)).not.toThrow();
    if (!outcome.ok) {
      expect(outcome.error.kind).toBe(status);
      expect(outcome.error.attempts).toBe(outcome.attempts);
      expect(outcome.error.message).toBe(outcome.rationale);
    }
  });
});

describe('outcome fields', () => {
  it('proceed carries the candidate and no error', async () => {
    const outcome = await run({ validate: () => valid });
    expect(outcome).toMatchObject({
      status: 'proceed',
      ok: true,
      candidate: 'draft 1',
      iterations: 0,
      attempts: 1,
      cost: 0,
    });
    expect(outcome).not.toHaveProperty('error');
  });

  it('fallback carries its own candidate and the last loop candidate as partial', async () => {
    const fallback = counted(
      (_n, { partial }: { partial: string | undefined }) => `fallback after ${partial}`,
    );
    const outcome = await run({
      maxRetries: 1,
      validate: changing(),
      fallback: (ctx) => fallback(ctx),
    });
    expect(outcome).toMatchObject({
      status: 'fallback',
      candidate: 'fallback after draft 2',
      partial: 'draft 2',
      iterations: 1,
      attempts: 2,
    });
    expect(fallback.calls).toBe(1);
  });

  it('terminate_with_partial keeps the partial and names the routing state', async () => {
    const outcome = await run({ validate: () => fundamental('sync and event-driven at once') });
    expect(outcome.status).toBe('terminate_with_partial');
    if (outcome.status !== 'terminate_with_partial') return;
    expect(outcome.partial).toBe('draft 1');
    expect(outcome.error).toMatchObject({
      kind: 'terminate_with_partial',
      state: 'routing',
      attempts: 1,
      lastOutput: 'draft 1',
    });
    expect(outcome.error.message).toContain('sync and event-driven at once');
  });

  it('iteration_exhausted names the cap and the attempts made', async () => {
    const outcome = await run({ maxRetries: 2, validate: changing() });
    expect(outcome).toMatchObject({
      status: 'iteration_exhausted',
      iterations: 2,
      attempts: 3,
      partial: 'draft 3',
    });
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      kind: 'iteration_exhausted',
      cap: 2,
      attempts: 3,
      state: 'routing',
    });
  });

  it('stalled names the repeated fingerprint and the cap', async () => {
    const outcome = await run({
      attempt: () => 'same',
      maxRetries: 5,
      validate: () => correctable('same'),
    });
    expect(outcome).toMatchObject({ status: 'stalled', iterations: 2, attempts: 3 });
    if (outcome.ok) return;
    expect(outcome.error.cap).toBe(3);
    expect(outcome.error.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(outcome.error.message).toContain(outcome.error.fingerprint);
  });

  it('ceiling_stop names maxAttempts and stops before the attempt that would pass it', async () => {
    const attempt = counted((n) => `draft ${n}`);
    const outcome = await run({ attempt, maxRetries: 5, maxAttempts: 2, validate: changing() });
    expect(attempt.calls).toBe(2);
    expect(outcome).toMatchObject({ status: 'ceiling_stop', attempts: 2, iterations: 1 });
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ cap: 2, attempts: 2 });
  });

  it('budget_stop sums reported cost and names maxCost', async () => {
    const outcome = await run({
      attempt: counted((n) => withCost(`draft ${n}`, 6)),
      maxCost: 10,
      validate: changing(),
    });
    expect(outcome).toMatchObject({
      status: 'budget_stop',
      cost: 12,
      attempts: 2,
      partial: 'draft 2',
    });
    if (outcome.ok) return;
    expect(outcome.error.cap).toBe(10);
  });

  it('empty carries the reason and never a candidate', async () => {
    const outcome = await run({
      attempt: () => emptyResult('no matching records'),
      validate: () => valid,
    });
    expect(outcome).toMatchObject({
      status: 'empty',
      ok: true,
      empty: { reason: 'no matching records' },
    });
    expect(outcome).not.toHaveProperty('candidate');
  });

  it('a signal aborted before the run starts runs no step and counts none', async () => {
    const attempt = counted(() => 'draft');
    const outcome = await runLoop({ attempt, validate: () => valid }, 'task', {
      signal: AbortSignal.abort('shutting down'),
    });
    expect(attempt.calls).toBe(0);
    expect(outcome).toMatchObject({ status: 'aborted', attempts: 0, iterations: 0 });
    expect(outcome.rationale).toContain('shutting down');
    expect(outcome.trace.map((entry) => entry.decision)).toEqual(['aborted']);
  });

  it('aborted aborts the in-flight step signal and keeps the partial', async () => {
    const controller = new AbortController();
    let stepSignal: AbortSignal | undefined;
    const outcome = runLoop<string, string>(
      {
        maxRetries: 2,
        attempt: counted((n, ctx) => {
          if (n === 1) return 'first';
          stepSignal = ctx.signal;
          queueMicrotask(() => controller.abort('user pressed stop'));
          return new Promise<string>(() => {});
        }),
        validate: () => correctable('again'),
      },
      'task',
      { signal: controller.signal },
    );
    const result = await outcome;
    expect(result).toMatchObject({ status: 'aborted', attempts: 2, partial: 'first' });
    expect(stepSignal?.aborted).toBe(true);
    if (!result.ok) expect(result.error.message).toContain('user pressed stop');
  });
});
