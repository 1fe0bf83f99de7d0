import { fc, test } from '@fast-check/vitest';
import { certifyLoop, type LoopCertificate, type PathStep } from 'loopchart/analysis';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import {
  allPaths,
  configOf,
  expectBudgetsMatchTrace,
  expectWithin,
  type Family,
  familyArb,
  STEPS,
  type StepName,
  valuesOf,
} from '../support/certifyFamily.js';
import { runScripted } from '../support/scriptedPath.js';

// SPEC §15, done-when 1 and 3: for generated loops, every bound of the certificate is reached by
// the path it names, run on the real machine with scripted steps on simulated time (tight); no
// enumerated path and no random run goes beyond it (sound); ctx.budget is what the trace says.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const zeroCost = (path: PathStep[]) => path.map((s) => ({ ...s, cost: 0 }));
/** No time passes: calls take none, and a transient failure asks to be retried at once. */
const instant = (path: PathStep[]) =>
  path.map((s) => ({ ...s, ms: 0, ...(s.waitMs === undefined ? {} : { waitMs: 0 }) }));

/** Each bound's own path, replayed: calls with free instant steps, cost instantly, time for free. */
async function expectTight(
  family: Family,
  certificate: LoopCertificate,
  kinds: readonly (StepName | 'total' | 'cost' | 'time')[],
) {
  for (const kind of kinds) {
    if (kind === 'cost' || kind === 'time') continue;
    const bound = certificate.calls[kind];
    const observed = await runScripted(family.options, instant(zeroCost(bound.path)));
    expect(observed.mismatch).toBeUndefined();
    const total = STEPS.reduce((sum, step) => sum + observed.calls[step], 0);
    expect(kind === 'total' ? total : observed.calls[kind as StepName]).toBe(bound.value);
    expectBudgetsMatchTrace(observed, family.options);
  }
  if (kinds.includes('cost')) {
    const costly = await runScripted(family.options, instant(certificate.cost.path));
    expect(costly.mismatch).toBeUndefined();
    expect(costly.cost).toBe(certificate.cost.value);
    expectBudgetsMatchTrace(costly, family.options);
  }
  if (kinds.includes('time')) {
    const slow = await runScripted(family.options, zeroCost(certificate.timeMs.path));
    expect(slow.mismatch).toBeUndefined();
    expect(slow.elapsedMs).toBe(certificate.timeMs.value);
    expectBudgetsMatchTrace(slow, family.options);
  }
}

/** The maxima of every enumerated path's values, as the run's caps cut them. */
function expectMaxOverPaths(family: Family, certificate: LoopCertificate, paths: PathStep[][]) {
  const values = paths.map((path) => valuesOf(path, family));
  for (const step of STEPS) {
    expect(Math.max(...values.map((v) => v.calls[step]))).toBe(certificate.calls[step].value);
  }
  const maxCost = family.options.maxCost ?? Infinity;
  expect(Math.min(maxCost, Math.max(...values.map((v) => v.cost)))).toBe(certificate.cost.value);
  const deadline = family.options.deadlineMs ?? Infinity;
  expect(Math.min(deadline, Math.max(...values.map((v) => v.time)))).toBe(certificate.timeMs.value);
}

/** Beyond the certificate's outcomes: failures whose effect may have happened. */
const OUTCOMES: Record<StepName, readonly string[]> = {
  attempt: ['ok', 'ok', 'ok', 'empty', 'ask', 'transient', 'uncertain', 'fatal'],
  validate: ['correctable', 'correctable', 'same', 'valid', 'fundamental', 'transient', 'fatal'],
  refine: ['ok', 'ok', 'transient', 'unknown effect', 'fatal'],
  fallback: ['ok', 'transient', 'uncertain', 'fatal'],
};
const outcomeArb = (step: StepName) =>
  fc.constantFrom(...(OUTCOMES[step] as PathStep['outcome'][]));

/** A random script per step: outcomes, costs up to the estimate, durations up to the cap. */
const randomRunArb = (family: Family) =>
  fc.record(
    Object.fromEntries(
      STEPS.map((step) => [
        step,
        fc.array(
          fc.record({
            step: fc.constant(step),
            outcome: outcomeArb(step),
            cost: fc.integer({ min: 0, max: family.costs[step] }),
            ms: fc.integer({ min: 0, max: family.certify.durations[step] }),
            waitMs: fc.option(fc.integer({ min: 0, max: family.options.maxRetryDelayMs ?? 0 }), {
              nil: undefined,
            }),
          }),
          { maxLength: 8 },
        ),
      ]),
    ) as Record<StepName, fc.Arbitrary<PathStep[]>>,
  );

describe('certifyLoop on generated loops', () => {
  let seen = 0;
  test.prop([familyArb.chain((f) => fc.tuple(fc.constant(f), randomRunArb(f)))], {
    numRuns: 1000,
  })(
    'equals the maximum over every enumerated path, reached by its own path; no random run goes beyond it',
    async ([family, script]) => {
      const certificate = certifyLoop(configOf(family), family.certify);
      const paths = allPaths(family, 300);
      if (paths) expectMaxOverPaths(family, certificate, paths);
      // one bound's path per loop, in turn: the total calls, the cost, the time
      await expectTight(family, certificate, [
        (['total', 'cost', 'time'] as const)[seen++ % 3] as 'total',
      ]);
      const observed = await runScripted(family.options, script);
      expectWithin(observed, certificate);
      expectBudgetsMatchTrace(observed, family.options);
    },
    300_000,
  );

  test.prop([familyArb], { numRuns: 60 })(
    'each bound is the maximum observed over every enumerated path run with scripted steps',
    async (family) => {
      const certificate = certifyLoop(configOf(family), family.certify);
      await expectTight(family, certificate, [...STEPS, 'total', 'cost', 'time']);
      const paths = allPaths(family, 40);
      if (paths === undefined) return;
      const most = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
      for (const path of paths) {
        const free = await runScripted(family.options, instant(zeroCost(path)));
        expect(free.mismatch).toBeUndefined();
        expect(free.calls).toEqual(valuesOf(path, family).calls);
        expectBudgetsMatchTrace(free, family.options);
        for (const step of STEPS) most[step] = Math.max(most[step], free.calls[step]);
      }
      for (const step of STEPS) expect(most[step]).toBe(certificate.calls[step].value);
    },
  );
});
