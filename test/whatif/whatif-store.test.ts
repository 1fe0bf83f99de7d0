import { describe, expect, it } from 'vitest';
import type { LoopConfig } from '../../src/core/vocabulary/config.js';
import { runLoop } from '../../src/runners/loop/runLoop.js';
import type { CheckpointStore } from '../../src/stores/kit/CheckpointStore.js';
import { MemoryCheckpointStore } from '../../src/stores/memory/MemoryCheckpointStore.js';
import { candidateSettings } from '../../src/tools/whatif/candidateSettings.js';
import { recordedRun } from '../../src/tools/whatif/recordedRun.js';
import { redecideRun } from '../../src/tools/whatif/redecideRun.js';
import { whatIf } from '../../src/tools/whatif/whatIf.js';
import { planned } from './plannedLoop.js';

async function storeOf(plans: readonly string[]): Promise<CheckpointStore> {
  const store = new MemoryCheckpointStore();
  for (const [i, plan] of plans.entries()) {
    await runLoop(planned(plan), 'task', { store, runId: `invoice-${i}` });
  }
  return store;
}

const PLANS = ['v', 'cv', 'ccv', 'cccv', 'cccc', 'f'];

describe('whatIf over a store', () => {
  it('a tighter budget without the fallback: every run exact, successes lost where the budget ran out', async () => {
    const report = await whatIf(await storeOf(PLANS), {
      loop: 'invoice',
      config: { maxRetries: 1, fallback: false },
    });
    const [summary] = report.candidates;
    expect(report.scanned).toBe(6);
    expect(summary).toMatchObject({
      runs: 6,
      exact: 6,
      unknown: 0,
      recorded: { proceed: 4, fallback: 1, terminate_with_partial: 1 },
      counterfactual: { proceed: 2, iteration_exhausted: 3, terminate_with_partial: 1 },
      successes: { recorded: 5, kept: 2, lost: 3, gained: 0 },
      // recorded 3+6+9+12+12+3 = 45; under maxRetries 1: 3+6+6+6+6+3 = 30
      cost: { recorded: 45, counterfactual: 30, saved: 15 },
    });
    expect(summary?.costBuckets.edges).toEqual([5, 10, 20]);
    expect(summary?.costBuckets.recorded).toEqual([2, 2, 2]);
    expect(summary?.costBuckets.counterfactual).toEqual([2, 4, 0]);
  });

  it('keeping the fallback it never ran: those runs are unknown, never guessed', async () => {
    const report = await whatIf(await storeOf(PLANS), { config: { maxRetries: 1 } });
    const [summary] = report.candidates;
    expect(summary).toMatchObject({ runs: 6, exact: 3, unknown: 3 });
    expect(summary?.unknownReasons).toEqual([
      { reason: 'it would run the fallback where the run decided refine', runs: 3 },
    ]);
    expect(summary?.examples.find((run) => run.runId === 'invoice-2')).toEqual({
      runId: 'invoice-2',
      recorded: expect.objectContaining({ status: 'proceed', attempts: 3, cost: 9 }),
      unknown: { beyondStep: 5, reason: 'it would run the fallback where the run decided refine' },
    });
  });

  it('a looser budget needs attempts the record lacks once a run spent its own', async () => {
    const [summary] = (await whatIf(await storeOf(PLANS), { config: { maxRetries: 5 } }))
      .candidates;
    expect(summary).toMatchObject({ exact: 5, unknown: 1 });
    expect(summary?.unknownReasons[0]?.reason).toBe(
      'it would refine where the run decided fallback',
    );
  });

  it('a sweep reads the store once and summarises each value', async () => {
    const report = await whatIf(await storeOf(PLANS), {
      candidates: [0, 1, 2, 3].map((maxRetries) => ({ maxRetries, fallback: false })),
      sweep: 'maxRetries',
    });
    expect(report.sweep).toBe('maxRetries');
    expect(report.candidates.map((c) => c.successes.kept + c.successes.gained)).toEqual([
      1, 2, 3, 4,
    ]);
    expect(report.candidates.map((c) => c.cost.counterfactual)).toEqual([18, 30, 39, 45]);
  });
});

describe('what a record does not hold is not made up', () => {
  async function one(config: LoopConfig<string, string>) {
    const store = new MemoryCheckpointStore();
    await runLoop(config, 'task', { store, runId: 'r' });
    const run = recordedRun((await store.load('r')) as never);
    if ('unreadable' in run) throw new Error(run.unreadable);
    return run;
  }

  it('a run stored with the trace off is unknown from its first step', async () => {
    const run = await one(planned('cv', { trace: false }));
    expect(redecideRun(run, run.settings)).toMatchObject({
      exact: false,
      beyondStep: 0,
      reason: 'the run was stored with the trace off',
    });
  });

  it('a run that waited for a person is unknown from that step', async () => {
    const run = await one(planned('v', { review: { beforeProceed: true } }));
    expect(run.status).toBe('paused');
    expect(redecideRun(run, run.settings)).toMatchObject({
      exact: false,
      beyondStep: 2,
      reason: 'a person reviewed the verdict',
    });
  });

  it('a new deadline is exact while the recorded steps end inside it, unknown once one would not', async () => {
    const run = await one(planned('ccv'));
    // six steps of 100 ms each, back to back
    const trace = run.trace.map((entry, i) => ({
      ...entry,
      startedAt: 1_000 + 100 * i,
      durationMs: entry.decision ? 0 : 100,
    }));
    const timed = { ...run, trace };
    const within = redecideRun(timed, candidateSettings(run.settings, { deadlineMs: 60_000 }));
    expect(within).toMatchObject({ exact: true, outcome: { status: 'proceed', attempts: 3 } });
    const tight = redecideRun(timed, candidateSettings(run.settings, { deadlineMs: 350 }));
    expect(tight).toMatchObject({ exact: false, beyondStep: 2 });
    expect(tight.exact || tight.reason).toMatch(/^deadlineMs 350 would end the run inside step 3/);
  });
});
