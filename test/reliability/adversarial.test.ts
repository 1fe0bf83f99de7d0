import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigures } from './support/figures.js';
import { ABORT_REASONS } from './support/forgedValues.js';
import { expectSerialisable, expectWithinBounds } from './support/outcomeChecks.js';
import { runScenario, type ScenarioRun } from './support/runScenario.js';
import type { Scenario } from './support/Scenario.js';
import { scenarioArbitrary } from './support/scenarioArbitrary.js';
import type { Probe } from './support/scriptedLoop.js';
import { settle, watchProcessErrors } from './support/watchProcessErrors.js';

// Each property runs ≥ 1,000 generated loops (RELIABILITY.md). Steps return valid, correctable,
// fundamental and garbage verdicts and forged step results, throw anything (forged failure records
// included), hang, settle late and report broken or huge costs; abort reasons may be hostile.
const RUNS = 1_000;
/**
 * A generous limit: the runs take seconds, far more on a loaded machine (about 30 s a property
 * at load ~10, over 180 s beside a CPU hog at load ~20). Each loop has its own 15 s watchdog.
 */
const TIMEOUT_MS = 900_000;
const processErrors = watchProcessErrors();
const finished: { calls: Probe['calls']; callsAtEnd: Probe['calls'] }[] = [];
const loops = { bounds: 0, serialisable: 0, cancelled: 0 };

async function run(scenario: Scenario, property: keyof typeof loops): Promise<ScenarioRun> {
  const result = await runScenario(scenario);
  loops[property] += 1;
  finished.push({ calls: result.probe.calls, callsAtEnd: result.callsAtEnd });
  await settle();
  expect(processErrors).toEqual([]);
  return result;
}

const cancelledScenario = fc
  .tuple(scenarioArbitrary, fc.integer({ min: -1, max: 8 }), fc.constantFrom(...ABORT_REASONS))
  .map(([scenario, afterMs, reason]) => ({ ...scenario, abort: { afterMs, reason } }));

describe('adversarial steps cannot break a loop', () => {
  afterAll(() => recordFigures('adversarial', { runsPerProperty: RUNS, loops }));

  test.prop([scenarioArbitrary], { numRuns: RUNS })(
    'every loop ends within its bounds with a SPEC §3 status, and runLoop never throws',
    async (scenario) => {
      const { outcome, probe } = await run(scenario, 'bounds');
      expectWithinBounds(outcome, scenario, probe);
    },
    TIMEOUT_MS,
  );

  test.prop([scenarioArbitrary], { numRuns: RUNS })(
    'the outcome is JSON and carries only values the steps returned',
    async (scenario) => {
      const { outcome, probe } = await run(scenario, 'serialisable');
      expectSerialisable(outcome, probe);
    },
    TIMEOUT_MS,
  );

  test.prop([cancelledScenario], { numRuns: RUNS })(
    'a cancelled loop ends, ignores late settlements and calls no step after it ended',
    async (scenario) => {
      const { outcome, probe } = await run(scenario, 'cancelled');
      expectWithinBounds(outcome, scenario, probe);
      if (scenario.abort.afterMs < 0) {
        expect(outcome.status).toBe('aborted');
        expect(probe.calls.attempt).toBe(0); // no step starts once the loop was stopped
      }
    },
    TIMEOUT_MS,
  );

  it('no step was called after its loop ended, and no rejection went unhandled, late ones included', async () => {
    await settle(40);
    expect(finished.length).toBeGreaterThanOrEqual(3 * RUNS);
    for (const { calls, callsAtEnd } of finished) expect(calls).toEqual(callsAtEnd);
    expect(processErrors).toEqual([]);
  });
});
