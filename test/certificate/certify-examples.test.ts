import { fc } from '@fast-check/vitest';
import { certifyLoop, type PathStep } from 'loopchart/analysis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invoiceSteps } from '../../examples/path-samples/invoiceLoop.js';
import {
  configOf,
  expectBudgetsMatchTrace,
  expectWithin,
  type Family,
  STEPS,
  type StepName,
  somePaths,
  valuesOf,
} from '../support/certifyFamily.js';
import { runScripted } from '../support/scriptedPath.js';

// SPEC §15, done-when 1 for the bundled examples: each example loop's bounds (with its own
// options, and per-call costs and durations declared here) are reached by their paths on the
// real machine, are the maximum over every enumerated path, and no random run passes them.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const { attempt: _a, validate: _v, ...invoice } = invoiceSteps;
const refine = ({ input }: { input: string }) => input;
const fallback = () => 'fallback';
/** Each example loop's options, as the example writes them (its step functions left out). */
const EXAMPLES: Record<string, Family['options']> = {
  quickstart: { maxRetries: 3 },
  'document-verification': { id: 'documentVerification', maxRetries: 3, refine },
  'human-review': { id: 'refundReply', maxRetries: 2, review: { beforeProceed: true } },
  'path-samples': { ...(invoice as unknown as Family['options']), refine, fallback },
  'model-based-testing': {
    id: 'invoiceTotal',
    maxRetries: 1,
    idempotent: { attempt: true },
    refine,
  },
  'pipeline (summary)': { maxRetries: 2 },
  'app-actor': { maxRetries: 2 },
};
const costs: Record<StepName, number> = { attempt: 4, validate: 1, refine: 2, fallback: 3 };
const durations: Record<StepName, number> = {
  attempt: 3000,
  validate: 500,
  refine: 800,
  fallback: 1200,
};

const familyOf = (options: Family['options']): Family => ({
  options: { ...options, maxCost: 25, costEstimates: costs },
  certify: { durations },
  costs,
});

const zeroCost = (path: PathStep[]) => path.map((s) => ({ ...s, cost: 0 }));
const instant = (path: PathStep[]) =>
  path.map((s) => ({ ...s, ms: 0, ...(s.waitMs === undefined ? {} : { waitMs: 0 }) }));

describe.each(Object.entries(EXAMPLES))('the %s example', (_name, options) => {
  const family = familyOf(options);
  const certificate = certifyLoop(configOf(family), family.certify);

  it('is reached by the path beside each bound', async () => {
    for (const kind of [...STEPS, 'total'] as const) {
      const bound = certificate.calls[kind];
      const observed = await runScripted(family.options, instant(zeroCost(bound.path)));
      expect(observed.mismatch).toBeUndefined();
      const total = STEPS.reduce((n, s) => n + observed.calls[s], 0);
      expect(kind === 'total' ? total : observed.calls[kind]).toBe(bound.value);
    }
    const costly = await runScripted(family.options, instant(certificate.cost.path));
    expect(costly.cost).toBe(certificate.cost.value);
    const slow = await runScripted(family.options, zeroCost(certificate.timeMs.path));
    expect(slow.elapsedMs).toBe(certificate.timeMs.value);
    expectBudgetsMatchTrace(slow, family.options);
  });

  // a loop with 3 retries has millions of paths: past 20,000 the ones enumerated stay within it
  it('is the maximum over every enumerated path (or not passed by the first 20,000)', () => {
    const { paths, complete } = somePaths(family, 20_000);
    const values = paths.map((path) => valuesOf(path, family));
    const check = (most: number, bound: number | null) =>
      complete ? expect(most).toBe(bound) : expect(most).toBeLessThanOrEqual(bound as number);
    for (const step of STEPS) {
      check(Math.max(...values.map((v) => v.calls[step])), certificate.calls[step].value);
    }
    check(Math.min(25, Math.max(...values.map((v) => v.cost))), certificate.cost.value);
    check(Math.max(...values.map((v) => v.time)), certificate.timeMs.value);
  });

  it('is not passed by random runs', async () => {
    const step = (name: StepName, outcomes: readonly PathStep['outcome'][]) =>
      fc.array(
        fc.record({
          step: fc.constant(name),
          outcome: fc.constantFrom(...outcomes),
          cost: fc.integer({ min: 0, max: costs[name] }),
          ms: fc.integer({ min: 0, max: durations[name] }),
          waitMs: fc.integer({ min: 0, max: 60_000 }),
        }),
        { maxLength: 10 },
      );
    const scripts = fc.sample(
      fc.record({
        attempt: step('attempt', ['ok', 'ok', 'ask', 'transient', 'empty']),
        validate: step('validate', ['correctable', 'correctable', 'same', 'valid', 'transient']),
        refine: step('refine', ['ok', 'ok', 'transient']),
        fallback: step('fallback', ['ok', 'transient']),
      }),
      { numRuns: 30, seed: 33 },
    );
    for (const script of scripts) {
      const observed = await runScripted(family.options, script);
      expectWithin(observed, certificate);
      expectBudgetsMatchTrace(observed, family.options);
    }
  });
});
