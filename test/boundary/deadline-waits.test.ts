/**
 * Issue 29: the deadline covers everything a run waits on (SPEC §14) — saves, loads and answer
 * checks, not only steps — so a store that never answers cannot hold a run past `deadlineMs`, and
 * nothing is reported as saved that was not. Simulated time (fake timers): no test sleeps.
 */

import {
  type CheckpointRecord,
  isCheckpointError,
  type LoopConfig,
  type LoopOutcome,
  type RunEvent,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { type PipelinePlan, runPipeline } from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { HangingStore, track } from './support/hangingStore.js';
import { simulatedTime } from './support/simulatedTime.js';

simulatedTime();

const valid = () => ({ valid: true as const });
const quick: LoopConfig<string, string> = {
  id: 'quick',
  deadlineMs: 3000,
  attempt: ({ input }) => `draft of ${input}`,
  validate: valid,
};

/**
 * Advances simulated time to just before the deadline, then to 1 s past it: whether the run had
 * settled before its deadline (it must not: its budget was not spent), and by then.
 */
async function settlesBy<T>(state: ReturnType<typeof track<T>>, deadlineMs: number) {
  await vi.advanceTimersByTimeAsync(deadlineMs - 1);
  const early = state.settled;
  await vi.advanceTimersByTimeAsync(1001);
  return { early, late: state.settled };
}

describe('a store whose save never answers', () => {
  it('ends runLoop ceiling_stop at the deadline, naming the save, when no save ever answers', async () => {
    const store = new HangingStore();
    store.hangFrom = 1;
    let calls = 0;
    const config = { ...quick, attempt: () => `draft ${++calls}` };
    const run = track(runLoop(config, 'memo', { store, runId: 'r' }));
    expect(await settlesBy(run, 3000)).toEqual({ early: false, late: true });
    const outcome = run.value as LoopOutcome;
    expect(outcome).toMatchObject({
      status: 'ceiling_stop',
      error: {
        cap: 'deadlineMs',
        inFlight: null,
        waitingFor: { operation: 'save', checkpoint: 1, lastSaved: 0 },
      },
    });
    expect(calls).toBe(0); // the attempt waited for its checkpoint and never began
    expect(await store.load('r')).toBeUndefined();
  });

  it('does not report an end the store never acknowledged: a proceed whose last save hangs', async () => {
    const store = new HangingStore();
    store.hangFrom = 3; // #1 attempting, #2 validating, #3 the end
    const reported: string[] = [];
    const onEvent = (event: RunEvent) => {
      if (event.type === 'outcome') reported.push(event.outcome.status);
    };
    const run = track(runLoop(quick, 'memo', { store, runId: 'r', onEvent }));
    expect(await settlesBy(run, 3000)).toEqual({ early: false, late: true });
    expect(run.value).toMatchObject({
      status: 'ceiling_stop',
      ok: false,
      partial: 'draft of memo',
      error: { cap: 'deadlineMs', waitingFor: { checkpoint: 3, lastSaved: 2 } },
    });
    expect((run.value as LoopOutcome).rationale).toMatch(/checkpoint #3.*not saved/);
    expect((await store.load('r'))?.seq).toBe(2);
    expect(reported).toEqual(['ceiling_stop']); // observers hear what the caller got
  });

  it('ends resumeLoop ceiling_stop within the time the paused run had left', async () => {
    const store = new HangingStore();
    const config: LoopConfig<string, string> = {
      ...quick,
      id: 'reviewed',
      deadlineMs: 2000,
      review: { beforeProceed: true },
    };
    const paused = await runLoop(config, 'memo', { store, runId: 'r' });
    expect(paused.status).toBe('paused');
    const before = await store.load('r');
    await vi.advanceTimersByTimeAsync(60_000); // the person takes a minute: not counted
    store.hangFrom = (before?.seq ?? 0) + 1;
    const resumed = track(
      resumeLoop(config, { store, runId: 'r', event: { type: 'review.continue' } }),
    );
    expect(await settlesBy(resumed, 2000)).toEqual({ early: false, late: true });
    expect(resumed.value).toMatchObject({
      status: 'ceiling_stop',
      error: { cap: 'deadlineMs', waitingFor: { checkpoint: (before?.seq ?? 0) + 1 } },
    });
    expect(await store.load('r')).toEqual(before);
  });

  it('ends runPipeline with store_timeout once its stages have run out of time', async () => {
    const store = new HangingStore();
    store.hangFrom = 1;
    const plan: PipelinePlan = { stages: [{ id: 'only', loop: quick }] };
    const run = track(runPipeline(plan, 'memo', { store, runId: 'p' }));
    expect(await settlesBy(run, 3000)).toEqual({ early: false, late: true });
    expect(isCheckpointError(run.error) && run.error.code).toBe('store_timeout');
    expect(String(run.error)).toMatch(/record #1/);
    expect(await store.load('p')).toBeUndefined();
  });
});

describe('a store whose load never answers', () => {
  it('fails resumeLoop with store_timeout within deadlineMs, having run nothing', async () => {
    const store = new HangingStore();
    await runLoop({ ...quick, review: { beforeProceed: true } }, 'memo', { store, runId: 'r' });
    store.hangLoads = true;
    let calls = 0;
    const config = { ...quick, review: { beforeProceed: true }, attempt: () => `d${++calls}` };
    const resumed = track(
      resumeLoop(config, { store, runId: 'r', event: { type: 'review.continue' } }),
    );
    expect(await settlesBy(resumed, 3000)).toEqual({ early: false, late: true });
    expect(isCheckpointError(resumed.error) && resumed.error.code).toBe('store_timeout');
    expect(calls).toBe(0);
  });
});

describe('an answer check that never answers', () => {
  it('refuses the answer within the time the run had left, leaving the run paused and answerable', async () => {
    const store = new HangingStore();
    const hangs = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: () => new Promise<never>(() => {}),
      },
    };
    const config: LoopConfig<string, string> = {
      ...quick,
      id: 'reviewed',
      deadlineMs: 2000,
      review: { beforeProceed: true },
      answers: { candidate: hangs },
    };
    await runLoop(config, 'memo', { store, runId: 'r' });
    const before = await store.load('r');
    const event = { type: 'review.modify', candidate: 'better' } as const;
    const answered = track(resumeLoop(config, { store, runId: 'r', event }));
    expect(await settlesBy(answered, 2000)).toEqual({ early: false, late: true });
    expect(isCheckpointError(answered.error) && answered.error.code).toBe('invalid_answer');
    expect(String(answered.error)).toMatch(/did not answer within/);
    expect(await store.load('r')).toEqual(before as CheckpointRecord);
    const next = await resumeLoop(config, {
      store,
      runId: 'r',
      event: { type: 'review.continue' },
    });
    expect(next.status).toBe('proceed');
  });
});
