import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckpointStore, MemoryCheckpointStore, runLoop } from 'loopchart';
import { runPipeline } from 'loopchart/pipeline';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import {
  type AnswerResponse,
  type RunDetail,
  type RunList,
  type RunsServer,
  serveRuns,
} from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './support/postgresServer.js';
import { draftLoop } from './support/reviewLoops.js';

const TOKEN = 'stores-token-0123456789abcdef';
const reachable = await postgresReachable();
const dir = mkdtempSync(join(tmpdir(), 'loopchart-serve-stores-'));
const schema = schemaName('serve');
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (reachable) await dropSchema(schema);
});

const report = {
  id: 'report',
  stages: [
    {
      id: 'gather',
      loop: { attempt: () => 42, validate: () => ({ valid: true }) },
      checkpoint: true,
    },
  ],
};

const stores: [string, () => Promise<CheckpointStore>][] = [
  ['memory', async () => new MemoryCheckpointStore()],
  ['SQLite', async () => new SqliteCheckpointStore(join(dir, 'runs.db'))],
];
if (reachable) {
  stores.push([
    'PostgreSQL',
    async () => {
      const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
      await store.setup();
      return store;
    },
  ]);
}

describe.each(stores)('the run API on the %s store', (_, open) => {
  let store: CheckpointStore;
  let server: RunsServer;
  const api = async <T>(path: string, body?: unknown) => {
    const response = await fetch(
      new URL(path, server.url),
      body === undefined
        ? {}
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body: JSON.stringify(body),
          },
    );
    return { status: response.status, body: (await response.json()) as T };
  };

  it('lists and shows runs, answers a loop review and a pipeline checkpoint, refuses a stale seq', async () => {
    store = await open();
    await runLoop(draftLoop, 'memo', { store, runId: 'loop-run' });
    await runPipeline(report, 'in', { store, runId: 'pipeline-run' });
    server = await serveRuns({
      store,
      loops: { draft: draftLoop },
      pipelines: { report },
      token: TOKEN,
      port: 0,
    });
    try {
      const paused = await api<RunList>('/api/runs?status=paused');
      expect(paused.body.runs.map((run) => run.runId).sort()).toEqual(['loop-run', 'pipeline-run']);
      const pipeline = await api<RunDetail>('/api/runs/pipeline-run');
      expect(pipeline.body).toMatchObject({
        kind: 'pipeline',
        pipelineStatus: 'paused',
        pause: { reason: 'checkpoint', stages: ['gather'] },
      });
      const before = await store.load('pipeline-run');
      const stale = await api<AnswerResponse>('/api/runs/pipeline-run/answer', {
        event: { type: 'pipeline.continue' },
        ifSeq: pipeline.body.seq - 1,
      });
      expect(stale.status).toBe(409);
      expect(await store.load('pipeline-run')).toEqual(before);
      const approved = await api<AnswerResponse>('/api/runs/pipeline-run/answer', {
        event: { type: 'pipeline.continue' },
        ifSeq: pipeline.body.seq,
        wait: true,
      });
      expect(approved.status).toBe(200);
      expect(approved.body.run).toMatchObject({
        kind: 'pipeline',
        status: 'done',
        pipelineStatus: 'completed',
      });
      const loop = await api<RunDetail>('/api/runs/loop-run');
      const continued = await api<AnswerResponse>('/api/runs/loop-run/answer', {
        event: { type: 'review.continue' },
        ifSeq: loop.body.seq,
        wait: true,
      });
      expect(continued.body.run).toMatchObject({ status: 'done', outcome: { status: 'proceed' } });
    } finally {
      await server.close();
      await store.close?.();
    }
  });
});
