import { fc, test } from '@fast-check/vitest';
import type { PathStep } from 'loopchart/analysis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { familyArb, STEPS, type StepName } from '../support/certifyFamily.js';
import { runScripted } from '../support/scriptedPath.js';

// SPEC §15, done-when 2: with per-step estimates maxCost reserves each call's estimate before it
// and refuses one that would pass it, so honest steps never overspend; without estimates a step
// is refused once the budget is reached, so the overshoot is at most one step's cost.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const OUTCOMES = {
  attempt: ['ok', 'ok', 'ok', 'ask', 'transient'],
  validate: ['correctable', 'correctable', 'correctable', 'valid', 'transient'],
  refine: ['ok', 'ok', 'transient'],
  fallback: ['ok'],
} as const;

/** Up to 12 calls of each step, each reporting a cost up to `most[step]`, taking no time. */
const scriptArb = (most: Record<StepName, number>) =>
  fc.record(
    Object.fromEntries(
      STEPS.map((step) => [
        step,
        fc.array(
          fc.record({
            step: fc.constant(step),
            outcome: fc.constantFrom(...OUTCOMES[step]),
            cost: fc.integer({ min: 0, max: most[step] }),
            ms: fc.constant(0),
            waitMs: fc.constant(0),
          }),
          { minLength: 12, maxLength: 12 },
        ),
      ]),
    ) as Record<StepName, fc.Arbitrary<PathStep[]>>,
  );

const withBudget = familyArb.chain((family) =>
  fc.tuple(
    fc.integer({ min: 1, max: 20 }).map((maxCost) => ({
      ...family,
      options: { ...family.options, maxCost, maxAttempts: 8, maxRetries: 5 },
    })),
    scriptArb(family.costs),
  ),
);

describe('maxCost', () => {
  test.prop([withBudget], { numRuns: 1000 })(
    'never spends more than maxCost when every step reports at most its estimate',
    async ([family, script]) => {
      const observed = await runScripted(family.options, script);
      expect(observed.cost).toBeLessThanOrEqual(family.options.maxCost as number);
    },
    300_000,
  );

  test.prop([withBudget], { numRuns: 200 })(
    'without estimates, passes maxCost by one step at most: the budget was not reached before it',
    async ([family, script]) => {
      const { costEstimates: _, ...options } = family.options;
      const observed = await runScripted(options, script);
      const costed = observed.outcome.trace.filter((e) => e.cost !== undefined && !e.decision);
      const beforeLast = costed.slice(0, -1).reduce((sum, e) => sum + (e.cost ?? 0), 0);
      expect(beforeLast).toBeLessThan(family.options.maxCost as number);
    },
    300_000,
  );

  it('refuses a call whose reservation would pass it, before the call, and says so', async () => {
    const path: PathStep[] = [
      { step: 'attempt', outcome: 'ok', cost: 5, ms: 0 },
      { step: 'validate', outcome: 'correctable', cost: 0, ms: 0 },
    ];
    const observed = await runScripted(
      { maxRetries: 3, maxCost: 8, costEstimates: { attempt: 5, validate: 0 } },
      path,
    );
    expect(observed.calls.attempt).toBe(1);
    expect(observed.outcome.status).toBe('budget_stop');
    expect(observed.outcome.ok ? undefined : observed.outcome.error.message).toMatchInlineSnapshot(
      `"attempt was not called: its reserved cost 5 on top of the 5 spent would pass maxCost 8."`,
    );
  });

  it('without an estimate, runs a step until the budget is reached: one step over at most', async () => {
    const path: PathStep[] = [
      { step: 'attempt', outcome: 'ok', cost: 7, ms: 0 },
      { step: 'validate', outcome: 'correctable', cost: 0, ms: 0 },
      { step: 'attempt', outcome: 'ok', cost: 7, ms: 0 },
      { step: 'validate', outcome: 'correctable', cost: 0, ms: 0 },
    ];
    const observed = await runScripted({ maxRetries: 3, maxCost: 8 }, path);
    expect(observed.calls.attempt).toBe(2);
    expect(observed.cost).toBe(14);
    expect(observed.outcome.status).toBe('budget_stop');
  });
});
