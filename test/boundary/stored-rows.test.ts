/**
 * Issue 29: stored rows are checked, not trusted (SPEC §14). A run resumes with the bounds of the
 * config it is resumed with, and a row that does not decode into a valid run is refused with
 * `CheckpointError` `corrupt`, byte-identical, before anything runs, by every reader.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckpointRecord,
  type CheckpointStore,
  isCheckpointError,
  type LoopConfig,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { loopHealth } from 'loopchart/health';
import { type PipelinePlan, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { createRunApi, type RunApi } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { runCli } from '../../src/tools/cli/runCli.js';
import { draftLoop } from '../support/reviewLoops.js';
import { editRow, type RowEdit, RowStore, unhandledRejections } from './support/rows.js';

const unhandled = unhandledRejections();
afterEach(() => unhandled.check());

const dir = mkdtempSync(join(tmpdir(), 'loopchart-stored-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The run API shows the run as unreadable (not a 5xx) and refuses an answer to it, typed. */
async function expectUnreadable(api: RunApi, runId: string, event: object, ifSeq?: number) {
  const shown = await api.show(runId);
  expect(shown.status).toBeLessThan(500);
  expect(shown.body).toMatchObject({ kind: 'unreadable', problem: { code: 'corrupt' } });
  const answered = await api.answer(runId, { event, ifSeq });
  // a typed refusal (the HTTP status of `unreadable` is the server's choice)
  expect(answered).toMatchObject({ ok: false, body: { error: { code: 'unreadable' } } });
  await api.drain();
}

const correctable = {
  valid: false as const,
  error: { severity: 'correctable' as const, message: 'no' },
};

describe('a run resumes with the bounds of its config, not of its row', () => {
  it('maxRetries edited 2 → 50 in the stored settings gives at most 2 refines', async () => {
    const store = new RowStore();
    let refines = 0;
    const config: LoopConfig<string, string> = {
      id: 'stubborn',
      maxRetries: 2,
      review: { afterFailedValidation: true },
      attempt: ({ attempt }) => `draft ${attempt}`,
      validate: () => correctable,
      refine: ({ input }) => {
        refines += 1;
        return input;
      },
    };
    let result = await runLoop(config, 'memo', { store, runId: 'r' });
    await editRow(store, 'r', (data) => {
      data.snapshot.context.settings.maxRetries = 50;
      data.snapshot.context.settings.maxAttempts = 100;
    });
    for (let answers = 0; result.status === 'paused' && answers < 60; answers += 1) {
      result = await resumeLoop(config, {
        store,
        runId: 'r',
        event: { type: 'review.continue' },
      });
    }
    expect(result.status).toBe('iteration_exhausted');
    expect(refines).toBe(2);
    expect(result.status !== 'paused' && result.iterations).toBe(2);
  });

  it('an attempt flag flipped to idempotent in the row does not make an in-flight attempt run again', async () => {
    const writer = new MemoryCheckpointStore();
    let calls = 0;
    const controller = new AbortController();
    const config: LoopConfig<string, string> = {
      id: 'once',
      attempt: ({ signal }) => {
        calls += 1;
        return new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
      },
      validate: () => ({ valid: true }),
    };
    const first = runLoop(config, 'memo', { store: writer, runId: 'r', signal: controller.signal });
    let inFlight: CheckpointRecord | undefined;
    while (calls === 0 || !inFlight) {
      await new Promise((r) => setImmediate(r));
      inFlight = await writer.load('r');
    }
    const copy = new RowStore();
    await copy.put(inFlight);
    await editRow(copy, 'r', (data) => {
      data.snapshot.context.settings.idempotent.attempt = true;
      data.claim.expiresAt = 0; // its writer died long ago
    });
    const resumed = await resumeLoop(config, { store: copy, runId: 'r' });
    expect(resumed.status).toBe('unknown_outcome');
    expect(calls).toBe(1);
    controller.abort();
    await first;
  });
});

/** Edits of a paused `draft` row that leave it JSON but no valid run. */
const corruptions: [string, RowEdit][] = [
  [
    'retryCount: "lots"',
    (data) => {
      data.snapshot.context.retryCount = 'lots';
    },
  ],
  [
    'an emptied context (its settings kept)',
    (data) => {
      data.snapshot.context = { settings: data.snapshot.context.settings };
    },
  ],
  [
    'an unknown state value',
    (data) => {
      data.snapshot.value = 'nowhere';
      data.state = 'nowhere';
    },
  ],
  [
    'a non-string rationale',
    (data) => {
      data.trace[0].rationale = 42;
    },
  ],
  [
    'a pending review without its reason',
    (data) => {
      delete data.pending.reason;
      delete data.snapshot.context.pending.reason;
    },
  ],
  [
    'settings.maxRetries: -1',
    (data) => {
      data.snapshot.context.settings.maxRetries = -1;
    },
  ],
];

const stores: [string, () => CheckpointStore & { close?: () => unknown }][] = [
  ['memory', () => new MemoryCheckpointStore()],
  ['SQLite', () => new SqliteCheckpointStore(join(dir, `${globalThis.crypto.randomUUID()}.db`))],
];

describe.each(stores)('a corrupt paused loop row on %s', (_, open) => {
  it.each(corruptions)(
    '%s: refused corrupt, untouched, by every reader',
    async (_name, corrupt) => {
      const store = open();
      await runLoop(draftLoop, 'memo', { store, runId: 'r' });
      await editRow(store, 'r', corrupt);
      const before = await store.load('r');

      for (const event of [undefined, { type: 'review.continue' } as const]) {
        const refused = await resumeLoop(draftLoop, { store, runId: 'r', event }).catch(
          (e: unknown) => e,
        );
        expect(isCheckpointError(refused) && refused.code).toBe('corrupt');
      }

      const api = createRunApi({ store, loops: { draft: draftLoop }, answers: true });
      await expectUnreadable(api, 'r', { type: 'review.continue' }, before?.seq);

      const health = await loopHealth(store);
      expect(health.skipped.unreadable).toBe(1);

      expect(await store.load('r')).toEqual(before);
      store.close?.();
    },
  );
});

describe('a corrupt pipeline record', () => {
  const plan: PipelinePlan = {
    id: 'report',
    stages: [
      {
        id: 'a',
        loop: { attempt: () => 'a', validate: () => ({ valid: true }) },
        checkpoint: true,
      },
      {
        id: 'b',
        dependsOn: ['a'],
        loop: { attempt: () => 'b', validate: () => ({ valid: true }) },
      },
    ],
  };

  it('with a null stage is refused corrupt by resumePipeline, the API and runs show, untouched', async () => {
    const file = join(dir, 'pipeline.db');
    const store = new SqliteCheckpointStore(file);
    const paused = await runPipeline(plan, 'Q3', { store, runId: 'p' });
    expect(paused.status).toBe('paused');
    await editRow(store, 'p', (data) => {
      data.context.stages.a = null;
    });
    const before = await store.load('p');

    const refused = await resumePipeline(plan, {
      store,
      runId: 'p',
      event: { type: 'pipeline.continue' },
    }).catch((e: unknown) => e);
    expect(isCheckpointError(refused) && refused.code).toBe('corrupt');

    const api = createRunApi({ store, pipelines: { report: plan }, answers: true });
    await expectUnreadable(api, 'p', { type: 'pipeline.continue' }, before?.seq);
    expect(await store.load('p')).toEqual(before);
    store.close();

    const capture = captureIo(false);
    const code = await runCli(['runs', 'show', 'p', '--db', file], capture.io);
    expect(code).not.toBe(0);
    expect(capture.stderr()).toMatch(/corrupt/);
  });

  it('runs show refuses a loop row with a non-string rationale instead of dying', async () => {
    const file = join(dir, 'loop.db');
    const store = new SqliteCheckpointStore(file);
    await runLoop(draftLoop, 'memo', { store, runId: 'r' });
    await editRow(store, 'r', (data) => {
      data.trace[0].rationale = { long: 'story' };
    });
    store.close();
    const capture = captureIo(false);
    const code = await runCli(['runs', 'show', 'r', '--db', file], capture.io);
    expect(code).not.toBe(0);
    expect(capture.stderr()).toMatch(/corrupt/);
  });
});
