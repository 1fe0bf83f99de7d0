/**
 * Found by the combination suite with faults on: a run that reached a pause in memory while the
 * save before it hung kept counting its time (the pause was not saved), but an abort meanwhile
 * re-armed the wait for the save from the abort on, so the run settled as late as the abort came
 * past its deadline and the grace. Within one drive the deadline never moves later.
 */
import { type LoopConfig, type LoopOutcome, runLoop } from 'loopchart';
import { describe, expect, it, vi } from 'vitest';
import { HangingStore, track } from '../boundary/support/hangingStore.js';
import { simulatedTime } from '../boundary/support/simulatedTime.js';

simulatedTime();

describe('a pause whose save hangs, then an abort', () => {
  it('ends the run at its deadline and the grace, not later by the time the abort came', async () => {
    const store = new HangingStore();
    store.hangFrom = 3; // #1 attempting, #2 validating, #3 the review pause
    const config: LoopConfig<string, string> = {
      deadlineMs: 2000,
      review: { beforeProceed: true },
      attempt: () => 'draft',
      validate: () => ({ valid: true }),
    };
    const controller = new AbortController();
    const run = track(runLoop(config, 'memo', { store, runId: 'r', signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort('the user left');
    await vi.advanceTimersByTimeAsync(1499); // 2,499 ms: before the deadline and the grace
    expect(run.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(run.settled).toBe(true);
    expect(run.value as LoopOutcome).toMatchObject({
      status: 'ceiling_stop',
      error: { cap: 'deadlineMs', waitingFor: { checkpoint: 3, lastSaved: 2 } },
    });
  });
});
