/**
 * Issue 24's findings, one test each (they failed on main at 9265129): where features met, a run
 * never settled, a second resumer ran a step again, a hung step hung the loop, a reviewer's typo
 * ended a run for good, and a resumed pause was announced again. Then what the combination suite
 * found later, one `describe` each.
 */

import { getEventListeners } from 'node:events';
import {
  type CheckpointStore,
  isCheckpointError,
  type LoopConfig,
  MemoryCheckpointStore,
  recoverRuns,
  resolveConfig,
  resumeLoop,
  runLoop,
  withCost,
} from 'loopchart';
import {
  type PipelineEmitted,
  type PipelinePlan,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { track } from '../boundary/support/hangingStore.js';

const valid = () => ({ valid: true as const });
/** What simulated time fakes (`Date` and `performance` apart): see test/boundary/support/simulatedTime.ts. */
const SIMULATED: NonNullable<Parameters<typeof vi.useFakeTimers>[0]>['toFake'] = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'Date',
  'performance',
];
const within = <T>(run: Promise<T>, ms: number) =>
  Promise.race([
    run,
    new Promise<string>((r) => setTimeout(() => r(`unsettled after ${ms} ms`), ms)),
  ]);

describe('issue 24', () => {
  it('a pipeline whose stage loop has a review settles: it pauses, naming the stage', async () => {
    const plan: PipelinePlan = {
      stages: [
        { id: 'x', loop: { review: { beforeProceed: true }, attempt: () => 'd', validate: valid } },
      ],
    };
    const run = await within(runPipeline(plan, null, { store: new MemoryCheckpointStore() }), 3000);
    expect(run).toMatchObject({
      status: 'paused',
      pause: { reason: 'stage_paused', stages: ['x'] },
    });
  });

  it('a second resumer that arrives while the first is in the step fails with conflict and runs nothing', async () => {
    const store = new MemoryCheckpointStore();
    let calls = 0;
    let release = () => {};
    const config: LoopConfig<string, string> = {
      idempotent: { attempt: true },
      attempt: () => {
        calls += 1;
        return new Promise<string>((resolve) => (release = () => resolve('draft')));
      },
      validate: valid,
    };
    const first = runLoop(config, 'task', { store, runId: 'r' });
    // the first is in its step (however long a loaded machine takes to get it there)
    await vi.waitFor(() => expect(calls).toBe(1), { timeout: 10_000, interval: 1 });
    const second = await resumeLoop(config, { store, runId: 'r' }).catch((e: unknown) => e);
    expect(isCheckpointError(second) && second.code).toBe('conflict');
    expect(calls).toBe(1);
    release();
    expect(await first).toMatchObject({ status: 'proceed' });
    expect(calls).toBe(1);
  });

  it('a judge that never answers ends the loop at its deadline; the default deadline is finite', async () => {
    expect(resolveConfig({ attempt: () => 'x', validate: valid }).deadlineMs).toBe(900_000);
    vi.useFakeTimers({ toFake: SIMULATED });
    try {
      const run = track(
        runLoop(
          { deadlineMs: 300, attempt: () => 'draft', validate: () => new Promise<never>(() => {}) },
          'q',
        ),
      );
      await vi.advanceTimersByTimeAsync(299);
      expect(run.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1001);
      expect(run.value).toMatchObject({
        status: 'ceiling_stop',
        error: { cap: 'deadlineMs', inFlight: 'validate' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a reviewer's typo is refused and the run stays answerable, instead of ending it for good", async () => {
    const store = new MemoryCheckpointStore();
    const config: LoopConfig<string, { title: string }> = {
      review: { beforeProceed: true },
      attempt: () => ({ title: 'Q3' }),
      validate: (draft) => (draft.title.length > 0 ? { valid: true } : { valid: false }),
      answers: { candidate: z.object({ title: z.string() }) },
    };
    await runLoop(config, 'q', { store, runId: 'r' });
    for (const typo of [{ type: 'review.modify', candidate: 42 }, { type: 'review.modify' }]) {
      const refused = await resumeLoop(config, { store, runId: 'r', event: typo as never }).catch(
        (e: unknown) => e,
      );
      expect(isCheckpointError(refused) && refused.code).toBe('invalid_answer');
    }
    const done = await resumeLoop(config, {
      store,
      runId: 'r',
      event: { type: 'review.continue' },
    });
    expect(done.status).toBe('proceed');
  });

  it('pipeline.paused is not announced again when a paused pipeline is resumed, refused or not', async () => {
    const loop = { attempt: () => 'd', validate: valid };
    const plan: PipelinePlan = {
      stages: [
        { id: 'a', loop, checkpoint: true },
        { id: 'b', dependsOn: ['a'], loop },
      ],
    };
    const store = new MemoryCheckpointStore();
    const paused = await runPipeline(plan, null, { store, runId: 'p' });
    expect(paused).toMatchObject({ status: 'paused', pause: { reason: 'checkpoint' } });
    const emitted: string[] = [];
    const onEvent = (event: PipelineEmitted) => emitted.push(event.type);
    const refused = await resumePipeline(plan, {
      store,
      runId: 'p',
      onEvent,
      event: { type: 'pipeline.modify', stage: 'b', input: 1 },
    }).catch((e: unknown) => e);
    expect(isCheckpointError(refused) && refused.code).toBe('not_waiting');
    expect(emitted).toEqual([]);
    const done = await resumePipeline(plan, {
      store,
      runId: 'p',
      onEvent,
      event: { type: 'pipeline.continue' },
    });
    expect(done.status).toBe('completed');
    expect(emitted).not.toContain('pipeline.paused');
  });
});

/** The store with every save taking `ms` (a loaded database server). */
function slowStore(ms: number): CheckpointStore {
  const store = new MemoryCheckpointStore();
  return {
    save: async (record) => {
      await new Promise((r) => setTimeout(r, ms));
      return store.save(record);
    },
    load: (id) => store.load(id),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
}

describe('a step waiting for its checkpoint to be saved has not begun (store × timeouts × deadline)', () => {
  it('its own timeout starts when it begins: a slow save does not time out an attempt that never ran', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      attemptTimeoutMs: 20,
      attempt: () => {
        calls += 1;
        return 'draft';
      },
      validate: valid,
    };
    // before: unknown_outcome ("attempt did not finish within attemptTimeoutMs"), attempts 1, 0 calls
    const outcome = await runLoop(config, 'q', { store: slowStore(40), runId: 'slow' });
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 1 });
    expect(calls).toBe(1);
    const plan: PipelinePlan = { stages: [{ id: 'only', loop: config }] };
    const piped = await runPipeline(plan, 'q', { store: slowStore(40), runId: 'slow-pipeline' });
    expect(piped).toMatchObject({
      status: 'completed',
      stages: { only: { loopStatus: 'proceed' } },
    });
    expect(calls).toBe(2);
  });

  it('a deadline that passes meanwhile stops the run with nothing in flight and no attempt counted', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      deadlineMs: 20,
      attempt: () => {
        calls += 1;
        return 'draft';
      },
      validate: valid,
    };
    // before: inFlight 'attempt', mayHaveActed true and attempts 1, for an attempt never called
    const outcome = await runLoop(config, 'q', { store: slowStore(60), runId: 'late' });
    expect(outcome).toMatchObject({
      status: 'ceiling_stop',
      attempts: 0,
      error: { cap: 'deadlineMs', inFlight: null, mayHaveActed: false, attempts: 0 },
      trace: [{ state: 'attempting', rationale: expect.stringMatching(/had not begun/) }, {}],
    });
    expect(calls).toBe(0);
  });

  it('an abort meanwhile counts no attempt; one that lands while the attempt runs counts it', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      attempt: ({ signal }) => {
        calls += 1;
        return new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
      },
      validate: valid,
    };
    const early = AbortSignal.timeout(20);
    // before: aborted with attempts 1, for an attempt never called
    const waiting = await runLoop(config, 'q', { store: slowStore(60), runId: 'a', signal: early });
    expect(waiting).toMatchObject({ status: 'aborted', attempts: 0 });
    expect(calls).toBe(0);
    const running = await runLoop(config, 'q', {
      store: slowStore(5),
      runId: 'b',
      signal: AbortSignal.timeout(60),
    });
    expect(running).toMatchObject({ status: 'aborted', attempts: 1 });
    expect(calls).toBe(1);
  });

  it('an answer resumed with an aborted signal counts no attempt the budget refused before it began', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      maxRetries: 2,
      maxCost: 2,
      costEstimates: { attempt: 2 },
      review: { afterFailedValidation: true },
      attempt: () => {
        calls += 1;
        return withCost('draft', 1);
      },
      validate: () => ({ valid: false, error: { severity: 'correctable', message: 'too short' } }),
    };
    const store = new MemoryCheckpointStore();
    expect(await runLoop(config, 'q', { store, runId: 'r' })).toMatchObject({ status: 'paused' });
    const signal = AbortSignal.abort('the user left');
    const event = { type: 'review.retry' } as const;
    // before: aborted with attempts 2 (the attempt the reservation refused), for 1 call
    const outcome = await resumeLoop(config, { store, runId: 'r', event, signal });
    expect(outcome).toMatchObject({ status: 'aborted', attempts: 1 });
    expect(calls).toBe(1);
  });
});

describe('a pipeline that ends as its answer is applied (resume × signal)', () => {
  it("leaves no listener on the caller's signal, so a later abort is not sent to a stopped pipeline", async () => {
    const plan: PipelinePlan = {
      stages: [{ id: 'a', loop: { attempt: () => 'd', validate: valid }, checkpoint: true }],
    };
    const store = new MemoryCheckpointStore();
    await runPipeline(plan, null, { store, runId: 'p' });
    const controller = new AbortController();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const done = await resumePipeline(plan, {
        store,
        runId: 'p',
        event: { type: 'pipeline.continue' },
        signal: controller.signal,
      });
      expect(done.status).toBe('completed');
      // before: the listener was added after the pipeline had stopped, and stayed
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      controller.abort('too late');
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('a pipeline stage cut short by a crash (recoverRuns × pipeline × a loop without refine or fallback)', () => {
  it('runs again when every step its loop has is idempotent: a refine or fallback it lacks acts on nothing', async () => {
    let calls = 0;
    const plan: PipelinePlan = {
      id: 'pipe',
      stages: [
        {
          id: 'charge',
          // validate is idempotent by default; no refine (loopchart's stand-in), no fallback
          loop: {
            idempotent: { attempt: true },
            attempt: ({ signal }) => {
              calls += 1;
              if (calls > 1) return 'receipt';
              return new Promise<never>((_, reject) =>
                signal.addEventListener('abort', () => reject(signal.reason)),
              );
            },
            validate: valid,
          },
        },
      ],
    };
    // the writer dies with the stage's attempt in flight: the row it left, in a fresh store
    const live = new MemoryCheckpointStore();
    const stop = new AbortController();
    const writer = runPipeline(plan, 'order-7', {
      store: live,
      runId: 'r',
      signal: stop.signal,
      claimOwner: 'pod-a',
    });
    const row = await vi.waitFor(async () => {
      const saved = await live.load('r');
      expect(calls).toBe(1);
      expect(saved?.data).toContain('"charge":{"status":"running"');
      return saved as NonNullable<typeof saved>;
    });
    stop.abort();
    await writer;
    const store = new MemoryCheckpointStore();
    await store.save({ ...row, seq: 1 });

    // the dead writer's own identity, restarted: it takes the run over at once
    const report = await recoverRuns(store, { pipelines: { pipe: plan } }, { claimOwner: 'pod-a' });
    expect(report.resumed).toEqual([{ runId: 'r', machineId: 'pipe', status: 'completed' }]);
    expect(calls).toBe(2);
  });
});
