import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runLoop } from '../../src/runners/loop/runLoop.js';
import { MemoryCheckpointStore } from '../../src/stores/memory/MemoryCheckpointStore.js';
import { candidateSettings } from '../../src/tools/whatif/candidateSettings.js';
import { recordedRun } from '../../src/tools/whatif/recordedRun.js';
import { redecideRun } from '../../src/tools/whatif/redecideRun.js';
import { optionsArb, scriptArb, scriptedConfig } from './scriptedWhatIf.js';

describe('what-if, the oracle: the same config re-decides every recorded run as it ran', () => {
  it('reproduces status, attempts, refines and cost of runs from a generated family of configs', async () => {
    const store = new MemoryCheckpointStore();
    const statuses = new Set<string>();
    let count = 0;
    await fc.assert(
      fc.asyncProperty(scriptArb, optionsArb, async (script, options) => {
        const runId = `run-${count++}`;
        const { config } = scriptedConfig(script, options);
        const outcome = await runLoop(config, 'task', { store, runId });
        if (!('iterations' in outcome)) throw new Error('a scripted run never pauses');
        statuses.add(outcome.status);
        const record = await store.load(runId);
        const run = record && recordedRun(record);
        if (!run || 'unreadable' in run) throw new Error(`unreadable: ${runId}`);
        expect(redecideRun(run, candidateSettings(run.settings, {}))).toEqual({
          exact: true,
          outcome: {
            status: outcome.status,
            attempts: outcome.attempts,
            iterations: outcome.iterations,
            cost: outcome.cost,
            timeMs: expect.any(Number),
          },
        });
      }),
      { numRuns: 400 },
    );
    // the family reaches every status a scripted run without a person or a deadline can end in
    expect([...statuses].sort()).toEqual([
      'budget_stop',
      'ceiling_stop',
      'empty',
      'fallback',
      'iteration_exhausted',
      'permanent_failure',
      'policy_stop',
      'proceed',
      'retry_exhausted',
      'stalled',
      'terminate_with_partial',
      'unknown_outcome',
    ]);
  });
});
