/**
 * Pauses inside pipeline stages (SPEC §7): a stage loop's review or question pauses the pipeline,
 * naming the stage and exposing the question; the answer is the loop's own event plus `stage`;
 * the pause persists and resumes in a new process; `pipeline.paused` is announced once.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type CheckpointStore, clarificationRequest, MemoryCheckpointStore } from 'loopchart';
import {
  type PipelineEmitted,
  type PipelinePlan,
  type PipelineRunResult,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { track } from '../boundary/support/hangingStore.js';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';

const valid = () => ({ valid: true as const });
const hangs = (run: Promise<unknown>, ms = 5000) =>
  Promise.race([run, new Promise((r) => setTimeout(() => r('still unsettled'), ms))]);

const reviewed: PipelinePlan = {
  stages: [
    { id: 'x', loop: { review: { beforeProceed: true }, attempt: () => 'd', validate: valid } },
  ],
};

function asking(): PipelinePlan {
  return {
    id: 'report',
    stages: [
      { id: 'find', loop: { attempt: () => 'rows', validate: valid } },
      {
        id: 'ask',
        dependsOn: ['find'],
        loop: {
          attempt: ({ answers }) =>
            answers.length === 0
              ? clarificationRequest({ question: 'Which fiscal year?', options: ['2025', '2026'] })
              : `report for ${String(answers[0]?.answer)}`,
          validate: valid,
        },
      },
    ],
  };
}

const paused = (run: unknown) => run as Extract<PipelineRunResult, { status: 'paused' }>;

describe.each<[string, () => CheckpointStore | undefined]>([
  ['no store', () => undefined],
  ['MemoryCheckpointStore', () => new MemoryCheckpointStore()],
  ['SqliteCheckpointStore', () => new SqliteCheckpointStore(':memory:')],
])('a stage loop that pauses, %s', (_name, open) => {
  it('settles: a review inside a stage pauses the pipeline, naming the stage', async () => {
    const store = open();
    const run = await hangs(runPipeline(reviewed, null, store ? { store, runId: 'r' } : {}));
    expect(run).toMatchObject({
      status: 'paused',
      pause: {
        reason: 'stage_paused',
        stages: ['x'],
        pending: { x: { kind: 'review', candidate: 'd' } },
      },
    });
    const next = await resumePipeline(reviewed, {
      ...(store ? { store, runId: 'r' } : { record: paused(run).record }),
      event: { type: 'review.continue', stage: 'x' },
    });
    expect(next).toMatchObject({ status: 'completed', stages: { x: { loopStatus: 'proceed' } } });
  });

  it('exposes the question, refuses bad answers without changing the record, and takes a good one', async () => {
    const store = open();
    const plan = asking();
    const run = paused(await runPipeline(plan, 'Q3', store ? { store, runId: 'a' } : {}));
    expect(run.pause).toMatchObject({
      reason: 'stage_paused',
      stages: ['ask'],
      pending: {
        ask: { kind: 'clarification', question: 'Which fiscal year?', options: ['2025', '2026'] },
      },
      message: expect.stringContaining("stage 'ask' asks: Which fiscal year?"),
    });
    const where = store ? { store, runId: 'a' } : { record: run.record };
    const before = store ? await store.load('a') : undefined;
    for (const [event, code] of [
      [{ type: 'clarification.answer', stage: 'ask', answer: '2024' }, 'invalid_answer'],
      [{ type: 'clarification.answer', answer: '2025' }, 'invalid_answer'],
      [{ type: 'clarification.answer', stage: 'nope', answer: '2025' }, 'invalid_answer'],
      [{ type: 'review.continue', stage: 'ask' }, 'not_waiting'],
      [{ type: 'clarification.answer', stage: 'find', answer: '2025' }, 'not_waiting'],
      [null, 'invalid_answer'],
    ] as const) {
      const emitted: string[] = [];
      const error = await resumePipeline(plan, {
        ...where,
        event: event as never,
        onEvent: (e: PipelineEmitted) => emitted.push(e.type),
      }).catch((e: unknown) => e);
      expect(error, JSON.stringify(event)).toMatchObject({ code });
      expect(emitted).toEqual([]); // a refused answer announces nothing, not even the pause again
      if (store) expect(await store.load('a')).toEqual(before);
    }
    const emitted: string[] = [];
    const done = await resumePipeline(plan, {
      ...where,
      event: { type: 'clarification.answer', stage: 'ask', answer: '2026' },
      onEvent: (e) => emitted.push(e.type),
    });
    expect(done).toMatchObject({ status: 'completed', results: { ask: 'report for 2026' } });
    expect(emitted).toEqual(['pipeline.stage.finished']);
  });
});

describe('a stage pause across processes', () => {
  let base: string;
  let lib: string;
  beforeAll(() => {
    ({ base, lib } = compileLibrary('pipeline-pauses', [
      'entries/index.ts',
      'entries/pipeline.ts',
      'entries/sqlite.ts',
    ]));
  }, 90_000);
  afterAll(() => base && removeLibrary(base));

  const child = (mode: 'run' | 'resume', event?: object) => {
    const result = spawnSync(process.execPath, [join(import.meta.dirname, 'pipelineChild.mjs')], {
      env: {
        ...process.env,
        LIB: lib,
        DB: join(base, 'pipeline.db'),
        MODE: mode,
        EVENT: JSON.stringify(event ?? null),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
  };

  it('persists the question and resumes with the answer in a new process', () => {
    const first = child('run');
    expect(first).toMatchObject({
      status: 'paused',
      pause: {
        reason: 'stage_paused',
        stages: ['ask'],
        pending: { ask: { question: 'Which fiscal year?' } },
      },
      attempts: 1,
    });
    expect(first.emitted.filter((t: string) => t === 'pipeline.paused')).toHaveLength(1);
    const refused = child('resume', { type: 'clarification.answer', stage: 'ask', answer: 'soon' });
    expect(refused).toMatchObject({ status: 'error', error: 'invalid_answer', emitted: [] });
    const second = child('resume', { type: 'clarification.answer', stage: 'ask', answer: '2025' });
    expect(second).toMatchObject({
      status: 'completed',
      results: { find: 'rows', ask: 'report for 2025' },
      attempts: 1, // only the answered attempt ran in this process; 'find' was not run again
    });
    expect(second.emitted).not.toContain('pipeline.paused');
  }, 120_000); // three node processes one after another: seconds each on a loaded machine
});

describe('one writer per pipeline run', () => {
  it('a second resumer while the first drives the pipeline fails with conflict and runs nothing', async () => {
    const store = new MemoryCheckpointStore();
    let calls = 0;
    let release = () => {};
    const plan: PipelinePlan = {
      stages: [
        { id: 'a', loop: { attempt: () => 'rows', validate: valid }, checkpoint: true },
        {
          id: 'b',
          dependsOn: ['a'],
          loop: {
            idempotent: true,
            attempt: () => {
              calls += 1;
              return new Promise<string>((resolve) => (release = () => resolve('report')));
            },
            validate: valid,
          },
        },
      ],
    };
    await runPipeline(plan, 'q', { store, runId: 'w' });
    const first = resumePipeline(plan, { store, runId: 'w', event: { type: 'pipeline.continue' } });
    // stage b is in its attempt (however long a loaded machine takes to get it there)
    await vi.waitFor(() => expect(calls).toBe(1), { timeout: 10_000, interval: 1 });
    const second = await resumePipeline(plan, { store, runId: 'w' }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'conflict', message: expect.stringMatching(/claim/) });
    release();
    expect(await first).toMatchObject({ status: 'completed', results: { b: 'report' } });
    expect(calls).toBe(1);
  });
});

describe('a cross-check that never answers', () => {
  it('fails after crossCheckTimeoutMs with its signal aborted, pausing the pipeline instead of holding it', async () => {
    let aborted = false;
    const plan: PipelinePlan = {
      stages: [
        { id: 'a', loop: { attempt: () => 'x', validate: valid } },
        { id: 'b', loop: { attempt: () => 'y', validate: valid } },
      ],
      crossCheckTimeoutMs: 200,
      crossCheck: (_results, { signal }) => {
        signal.addEventListener('abort', () => (aborted = true));
        return new Promise<never>(() => {});
      },
    };
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    try {
      const run = track(runPipeline(plan, 'q'));
      await vi.advanceTimersByTimeAsync(199);
      expect(run.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1001);
      expect(run.value).toMatchObject({
        status: 'paused',
        pause: {
          reason: 'cross_check_failed',
          error: expect.stringMatching(/did not answer within 200 ms/),
        },
      });
      expect(aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
