import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/vocabulary/config.js';
import { runLoop } from '../../src/runners/loop/runLoop.js';
import { candidateSettings } from '../../src/tools/whatif/candidateSettings.js';
import { recordedRun } from '../../src/tools/whatif/recordedRun.js';
import { redecideRun } from '../../src/tools/whatif/redecideRun.js';
import {
  type Calls,
  changeArb,
  optionsArb,
  optionsOf,
  recordedOutcome,
  scriptArb,
  scriptedConfig,
} from './scriptedWhatIf.js';

const RUNS = 1_000;

describe('what-if, differential: an exact re-decision is what a real run under the new config gives', () => {
  it(`holds over ${RUNS} generated runs and candidate configs`, async () => {
    const tally = { exact: 0, unknown: 0, changed: 0, needsSteps: 0 };
    let count = 0;
    await fc.assert(
      fc.asyncProperty(scriptArb, optionsArb, changeArb, async (script, options, change) => {
        const runId = `run-${count++}`;
        const recorded = scriptedConfig(script, options);
        const { record } = await recordedOutcome(recorded.config, runId);
        const run = recordedRun(record);
        if ('unreadable' in run) throw new Error(`unreadable: ${runId}`);
        const settings = candidateSettings(run.settings, change);
        const real = scriptedConfig(script, optionsOf(settings));
        expect(resolveConfig(real.config)).toEqual(settings);
        const outcome = await runLoop(real.config, 'task');
        const redecided = redecideRun(run, settings);
        const needsSteps = exceeds(real.calls, recorded.calls);
        if (needsSteps) tally.needsSteps += 1;
        if (!redecided.exact) {
          tally.unknown += 1;
          return;
        }
        tally.exact += 1;
        if (redecided.outcome.status !== run.status) tally.changed += 1;
        expect(needsSteps, 'a run that needs steps the record lacks is never exact').toBe(false);
        expect(redecided.outcome).toEqual({
          status: outcome.status,
          attempts: outcome.attempts,
          iterations: outcome.iterations,
          cost: outcome.cost,
          timeMs: expect.any(Number),
        });
      }),
      { numRuns: RUNS },
    );
    expect(count).toBe(RUNS);
    // the property is not carried by one side: many exact answers differ from the record, and
    // many candidates ask for steps the record does not hold
    expect(tally.changed).toBeGreaterThan(RUNS / 10);
    expect(tally.needsSteps).toBeGreaterThan(RUNS / 10);
    expect(tally.exact).toBeGreaterThan(RUNS / 2);
  }, 120_000); // 1,000 real runs: about 10 s quiet, 30 s beside a busy suite
});

function exceeds(real: Calls, recorded: Calls): boolean {
  return (Object.keys(real) as (keyof Calls)[]).some((step) => real[step] > recorded[step]);
}
