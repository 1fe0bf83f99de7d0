import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ContextFacts } from '../src/core/chart/ContextFacts.js';
import type { LoopContext } from '../src/core/chart/loopContext.js';
import { routeFactsOf } from '../src/core/chart/routeFactsOf.js';

const step = fc.constantFrom('attempt', 'validate', 'refine', 'fallback');
const context = fc
  .record({
    maxRetries: fc.nat(10),
    maxAttempts: fc.nat(20),
    maxCost: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
    stall: fc.option(fc.record({ after: fc.nat(5) }), { nil: undefined }),
    idempotent: fc.record({
      attempt: fc.boolean(),
      validate: fc.boolean(),
      refine: fc.boolean(),
      fallback: fc.boolean(),
    }),
    maxRetryDelayMs: fc.nat(60_000),
    verdict: fc.option(
      fc.oneof(
        fc.constant({ valid: true }),
        fc.record({ valid: fc.constant(false), malformed: fc.string() }),
      ),
      { nil: undefined },
    ),
    retryCount: fc.nat(10),
    attempts: fc.nat(20),
    cost: fc.double({ min: 0, max: 100, noNaN: true }),
    repeats: fc.nat(5),
    failure: fc.option(fc.record({ step, kind: fc.constantFrom('transient', 'permanent') }), {
      nil: undefined,
    }),
    transientRetried: fc.boolean(),
  })
  .map(
    (c) =>
      ({
        settings: {
          maxRetries: c.maxRetries,
          maxAttempts: c.maxAttempts,
          maxCost: c.maxCost,
          stall: c.stall,
          idempotent: c.idempotent,
          maxRetryDelayMs: c.maxRetryDelayMs,
        },
        verdict: c.verdict,
        retryCount: c.retryCount,
        attempts: c.attempts,
        cost: c.cost,
        stall: { fingerprint: undefined, repeats: c.repeats },
        failure: c.failure,
        ledger: { transientRetried: c.transientRetried },
      }) as unknown as LoopContext,
  );

describe('ContextFacts', () => {
  test.prop([context], { numRuns: 500 })(
    'reads every fact routeFactsOf copies, with the same value',
    (ctx) => {
      const copied = routeFactsOf(ctx);
      const read = new ContextFacts(ctx);
      const keys = Object.keys(copied) as (keyof typeof copied)[];
      expect(keys.length).toBe(13);
      expect(Object.fromEntries(keys.map((key) => [key, read[key]]))).toStrictEqual(copied);
    },
  );
});
