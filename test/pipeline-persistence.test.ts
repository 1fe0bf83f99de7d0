import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckpointRecord,
  type CheckpointStore,
  isLoopConfigError,
  type LoopConfig,
  MemoryCheckpointStore,
  runLoop,
} from 'loopchart';
import {
  type PipelinePlan,
  type PipelineRunResult,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { pipelineRecordOf } from '../src/runners/pipeline/pipelineRecord.js';
import { answerRun } from '../src/tools/serve/answerRun.js';
import { counted, deferred, valid } from './support/scriptedSteps.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-pipeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What one "process" builds from source: a fresh plan a → (b, c) → d whose functions count their
 * calls, b with a checkpoint. A restarted process has new functions and new counters.
 */
function processPlan(loopOptions: Partial<LoopConfig> = {}) {
  const loop = (id: string) => ({
    maxRetries: 0,
    ...loopOptions,
    attempt: counted((_, { input }: { input: unknown }) => ({ id, input })),
    validate: () => valid,
  });
  const loops = { a: loop('a'), b: loop('b'), c: loop('c'), d: loop('d') };
  const plan: PipelinePlan = {
    id: 'report',
    stages: [
      { id: 'd', dependsOn: ['b', 'c'], loop: loops.d },
      { id: 'b', dependsOn: ['a'], loop: loops.b, checkpoint: true },
      { id: 'c', dependsOn: ['a'], loop: loops.c },
      { id: 'a', loop: loops.a },
    ],
  };
  const calls = () => Object.values(loops).map((l) => l.attempt.calls);
  return { plan, loops, calls };
}

function expectStatus(run: PipelineRunResult, status: PipelineRunResult['status']) {
  expect(run.status, run.status === 'paused' ? run.pause.message : run.message).toBe(status);
}

describe('a pipeline aborted before it begins', () => {
  it('runs no stage and saves nothing, with a store or without one', async () => {
    for (const withStore of [false, true]) {
      const { plan, calls } = processPlan();
      const store = new MemoryCheckpointStore();
      const signal = AbortSignal.abort('the caller gave up');
      const run = await runPipeline(plan, 'q', {
        signal,
        ...(withStore ? { store, runId: 'early' } : {}),
      });
      expectStatus(run, 'aborted');
      if (run.status !== 'aborted') return;
      expect(run.abortReason).toBe('the caller gave up');
      expect(Object.values(run.stages).map((stage) => stage.status)).toEqual(
        Array(4).fill('not_started'),
      );
      expect(calls()).toEqual([0, 0, 0, 0]);
      expect(await store.load('early')).toBeUndefined();
    }
  });
});

describe('a pipeline that pauses survives a restart', () => {
  it('a checkpoint pause stored in SQLite resumes in a new process without re-running finished stages', async () => {
    const file = join(dir, 'restart.db');
    const first = processPlan();
    const store = new SqliteCheckpointStore(file);
    const paused = await runPipeline(first.plan, 'Q3 churn', { store, runId: 'q3' });
    expectStatus(paused, 'paused');
    expect(paused.status === 'paused' && paused.pause).toMatchObject({
      reason: 'checkpoint',
      stages: ['b'],
    });
    expect(first.calls()).toEqual([1, 1, 1, 0]);
    expect(await store.list()).toMatchObject([
      { runId: 'q3', status: 'paused', state: 'layer2.awaitingReview', machineId: 'report' },
    ]);
    store.close();

    // The restart: new functions and counters, a new store on the same file, a new actor.
    const second = processPlan();
    const reopened = new SqliteCheckpointStore(file);
    const done = await resumePipeline(second.plan, {
      store: reopened,
      runId: 'q3',
      event: { type: 'pipeline.continue' },
    });

    expectStatus(done, 'completed');
    expect(second.calls()).toEqual([0, 0, 0, 1]);
    const a = { id: 'a', input: 'Q3 churn' };
    expect(second.loops.d.attempt.args[0]?.[0].input).toEqual({
      b: { id: 'b', input: { a } },
      c: { id: 'c', input: { a } },
    });
    expect(done.status === 'completed' && done.stages.b).toMatchObject({
      status: 'succeeded',
      reviewed: true,
      runs: 1,
    });
    expect(await reopened.list()).toMatchObject([
      { runId: 'q3', status: 'done', state: 'completed' },
    ]);
    const again = await resumePipeline(second.plan, { store: reopened, runId: 'q3' });
    expect(again).toEqual(done);
    expect(second.calls()).toEqual([0, 0, 0, 1]);
    reopened.close();
  });

  it('a paused run resumed without an answer stays paused and runs nothing', async () => {
    const store = new MemoryCheckpointStore();
    await runPipeline(processPlan().plan, 'q', { store, runId: 'r' });
    const later = processPlan();
    const run = await resumePipeline(later.plan, { store, runId: 'r' });
    expectStatus(run, 'paused');
    expect(later.calls()).toEqual([0, 0, 0, 0]);
  });
});

describe('a stage in flight when the process died', () => {
  /** Runs the plan until b and c are in flight, and returns the row stored at that moment. */
  async function rowWhileRunning(loopOptions: Partial<LoopConfig>) {
    const { plan, loops } = processPlan(loopOptions);
    const hanging = deferred<void>();
    const inFlight = deferred<void>();
    loops.b.attempt = counted(() => {
      inFlight.resolve();
      return hanging.promise;
    }) as never;
    const store = new MemoryCheckpointStore();
    const controller = new AbortController();
    const run = runPipeline(plan, 'q', { store, runId: 'crash', signal: controller.signal });
    await inFlight.promise;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const row = (await store.load('crash')) as CheckpointRecord;
    controller.abort();
    await run;
    // the row as a writer that died leaves it, once its claim on the run has expired
    const { claim: _, ...record } = JSON.parse(row.data);
    const restored = new MemoryCheckpointStore();
    await restored.save({ ...row, seq: 1, data: JSON.stringify(record) });
    return { row, restored };
  }

  it('is not run again when its loop is not idempotent: the pipeline pauses with unknown_outcome', async () => {
    const { row, restored } = await rowWhileRunning({});
    expect(JSON.parse(row.data).context.stages.b.status).toBe('running');
    const next = processPlan();
    const run = await resumePipeline(next.plan, { store: restored, runId: 'crash' });
    expectStatus(run, 'paused');
    expect(run.status === 'paused' && run.pause.message).toMatchInlineSnapshot(
      `"stage 'b' ended as unknown_outcome: stage 'b' was running when the pipeline was saved; its loop is not declared idempotent, so it was not run again"`,
    );
    expect(next.calls()).toEqual([0, 0, 0, 0]);
  });

  it('runs again from its start when every step of its loop is idempotent', async () => {
    const { restored } = await rowWhileRunning({ idempotent: true });
    const next = processPlan({ idempotent: true });
    const run = await resumePipeline(next.plan, {
      store: restored,
      runId: 'crash',
      event: undefined,
    });
    expectStatus(run, 'paused');
    expect(run.status === 'paused' && run.pause.reason).toBe('checkpoint');
    expect(next.calls()).toEqual([0, 1, 0, 0]);
  });
});

describe('records that cannot be used', () => {
  it('refuses a missing run, a record of another plan, and a corrupt row', async () => {
    const store = new MemoryCheckpointStore();
    const { plan } = processPlan();
    await expect(resumePipeline(plan, { store, runId: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await runPipeline(plan, 'q', { store, runId: 'r' });
    const reshaped = { ...plan, stages: plan.stages.map((s) => ({ ...s, checkpoint: false })) };
    await expect(resumePipeline(reshaped, { store, runId: 'r' })).rejects.toMatchObject({
      code: 'other_machine',
      message:
        "loopchart: run 'r': the pipeline record was saved by another plan (its stages, dependencies or checkpoints differ from pipeline 'report')",
    });
    const broken = new MemoryCheckpointStore();
    const row = (await store.load('r')) as CheckpointRecord;
    await broken.save({ ...row, seq: 1, data: row.data.slice(0, 40) });
    await expect(resumePipeline(plan, { store: broken, runId: 'r' })).rejects.toMatchObject({
      code: 'corrupt',
    });
    expect((await broken.load('r'))?.data).toBe(row.data.slice(0, 40));
  });

  it('a failed save stops the pipeline before its next step and says so', async () => {
    // Save #2 is the one taken as b and c start: neither may run.
    const { plan, calls } = processPlan();
    const memory = new MemoryCheckpointStore();
    let saves = 0;
    const failing: CheckpointStore = {
      ...memory,
      load: (id) => memory.load(id),
      list: (o) => memory.list(o),
      delete: (id) => memory.delete(id),
      save: async (record) => {
        if (++saves === 2) throw new Error('disk full');
        await memory.save(record);
      },
    };
    await expect(runPipeline(plan, 'q', { store: failing, runId: 'full' })).rejects.toMatchObject({
      name: 'CheckpointError',
      code: 'save_failed',
      message: expect.stringContaining(
        "saving record #2 of pipeline run 'full' failed (disk full)",
      ),
    });
    expect(calls()).toEqual([1, 0, 0, 0]);
  });
});

describe('pipelineRecordOf, the one reader of "is this row a pipeline"', () => {
  it("reads a pipeline's saved record, and nothing else", async () => {
    const store = new MemoryCheckpointStore();
    await runPipeline(processPlan().plan, 'q', { store, runId: 'pipe' });
    await runLoop({ attempt: () => 'x', validate: () => valid }, 'q', { store, runId: 'loop' });
    const pipe = (await store.load('pipe')) as CheckpointRecord;
    const loop = (await store.load('loop')) as CheckpointRecord;
    expect(pipelineRecordOf(pipe.data)).toMatchObject({
      format: 'loopchart.pipeline',
      status: 'paused',
      state: expect.any(String),
    });
    expect(pipelineRecordOf(loop.data)).toBeUndefined();
    expect(pipelineRecordOf(pipe.data.slice(0, 40))).toBeUndefined();
    expect(pipelineRecordOf('null')).toBeUndefined();
    expect(pipelineRecordOf('"loopchart.pipeline"')).toBeUndefined();
  });
});

describe('ifSeq pins an answer to the pause it was meant for', () => {
  const continueEvent = { type: 'pipeline.continue' } as const;

  it('resumePipeline refuses a stale ifSeq with conflict, running nothing and changing no row', async () => {
    const store = new MemoryCheckpointStore();
    await runPipeline(processPlan().plan, 'q', { store, runId: 'r' });
    const before = (await store.load('r')) as CheckpointRecord;
    const later = processPlan();
    const stale = resumePipeline(later.plan, {
      store,
      runId: 'r',
      event: continueEvent,
      ifSeq: before.seq - 1,
    });
    await expect(stale).rejects.toMatchObject({
      name: 'CheckpointError',
      code: 'conflict',
      message: `loopchart: run 'r' is at checkpoint #${before.seq}, not #${before.seq - 1} (ifSeq): it moved on since that pause, so the answer was not applied`,
    });
    expect(later.calls()).toEqual([0, 0, 0, 0]);
    expect(await store.load('r')).toEqual(before);
    const done = await resumePipeline(later.plan, {
      store,
      runId: 'r',
      event: continueEvent,
      ifSeq: before.seq,
    });
    expectStatus(done, 'completed');
    expect(later.calls()).toEqual([0, 0, 0, 1]);
  });

  it('refuses an ifSeq that is not a checkpoint number, or that comes with a record and no store', async () => {
    const store = new MemoryCheckpointStore();
    const { plan } = processPlan();
    const paused = await runPipeline(plan, 'q', { store, runId: 'r' });
    const bad = resumePipeline(plan, { store, runId: 'r', event: continueEvent, ifSeq: 0 });
    await expect(bad).rejects.toThrow('- ifSeq: must be a checkpoint number (an integer ≥ 1)');
    if (paused.status !== 'paused') throw new Error('the plan pauses at b');
    const record = resumePipeline(plan, { record: paused.record, event: continueEvent, ifSeq: 1 });
    await expect(record).rejects.toSatisfy(isLoopConfigError);
    await expect(record).rejects.toThrow('- ifSeq: needs a store and a runId');
  });

  it("the run API's answer is pinned through resumePipeline: a row that moves on after its check is not answered", async () => {
    const memory = new MemoryCheckpointStore();
    const { plan, calls } = processPlan();
    await runPipeline(plan, 'q', { store: memory, runId: 'r' });
    const paused = (await memory.load('r')) as CheckpointRecord;
    let loads = 0;
    // another writer saves the run again right after the API read it for its own check
    const racing: CheckpointStore = {
      save: (row) => memory.save(row),
      load: async (id) => {
        const row = await memory.load(id);
        if (++loads === 1 && row) await memory.save({ ...row, seq: row.seq + 1 });
        return row;
      },
      list: (o) => memory.list(o),
      delete: (id) => memory.delete(id),
    };
    const drives = new Set<Promise<unknown>>();
    const reply = await answerRun(
      racing,
      { loops: {}, pipelines: { report: plan } },
      'r',
      { event: continueEvent, ifSeq: paused.seq, wait: true },
      drives,
      () => {},
    );
    expect(reply).toMatchObject({ ok: false, status: 409, body: { error: { code: 'conflict' } } });
    expect(calls()).toEqual([1, 1, 1, 0]);
    expect(await memory.load('r')).toEqual({ ...paused, seq: paused.seq + 1 });
  });
});
