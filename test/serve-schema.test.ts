import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { runLoop } from 'loopchart';
import { runPipeline } from 'loopchart/pipeline';
import { API_SCHEMAS, openApiDocument, type RunsServer, serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askLoop, draftLoop } from './support/reviewLoops.js';
import { correctable } from './support/scriptedSteps.js';

// Every response of a real server is checked against the served OpenAPI document by an
// independent validator (ajv), and parsed by the zod schema the document was generated from.

const TOKEN = 'schema-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'loopchart-serve-schema-'));
const store = new SqliteCheckpointStore(join(dir, 'runs.db'));
let server: RunsServer;
let document: ReturnType<typeof openApiDocument>;
const ajv = new Ajv2020({ strict: false, allErrors: true });

type Name = keyof typeof API_SCHEMAS;
const seen = new Set<Name>();

async function call(name: Name, path: string, init: RequestInit = {}, status?: number) {
  const response = await fetch(new URL(path, server.url), init);
  const body = (await response.json()) as unknown;
  if (status !== undefined) expect(response.status, JSON.stringify(body)).toBe(status);
  const validate = ajv.getSchema(name);
  expect(validate?.(body), JSON.stringify(validate?.errors)).toBe(true);
  expect(API_SCHEMAS[name].safeParse(body).success).toBe(true);
  seen.add(name);
  return body as Record<string, unknown>;
}
const answer = (runId: string, body: unknown, status: number, name: Name = 'AnswerResponse') => {
  expect(ajv.getSchema('AnswerRequest')?.(body)).toBe(status !== 400);
  seen.add('AnswerRequest');
  return call(
    name,
    `/api/runs/${runId}/answer`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    },
    status,
  );
};

beforeAll(async () => {
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  await runLoop(draftLoop, 'memo', { store, runId: 'review-2' });
  await runLoop(askLoop, 'q', { store, runId: 'ask' });
  await runLoop(
    { id: 'fails', maxRetries: 1, attempt: () => 'same', validate: () => correctable('no') },
    'x',
    { store, runId: 'exhausted' },
  );
  const stage = {
    id: 'a',
    loop: { attempt: () => 1, validate: () => ({ valid: true }) },
    checkpoint: true,
  };
  await runPipeline({ id: 'report', stages: [stage] }, 'in', { store, runId: 'pipeline' });
  await store.save({
    runId: 'broken',
    seq: 1,
    status: 'running',
    state: 'attempting',
    machineId: 'draft',
    updatedAt: Date.now(),
    data: '{not json',
  });
  server = await serveRuns({
    store,
    loops: { draft: draftLoop, ask: askLoop },
    token: TOKEN,
    port: 0,
  });
  document = (await (
    await fetch(new URL('/api/openapi.json', server.url))
  ).json()) as typeof document;
  for (const [name, schema] of Object.entries(document.components.schemas))
    ajv.addSchema(schema, name);
});
afterAll(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('is the one generated from the zod schemas, and names a schema for every response', () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const refs = JSON.stringify(document.paths).match(/#\/components\/schemas\/\w+/g) ?? [];
    expect(new Set(refs.map((ref) => ref.split('/').at(-1)))).toEqual(
      new Set(Object.keys(API_SCHEMAS)),
    );
  });
});

describe('real responses match their schema', () => {
  it('lists, filtered and paged', async () => {
    const page = await call('RunList', '/api/runs?limit=2', {}, 200);
    expect(page.next).toEqual(expect.any(String));
    await call(
      'RunList',
      `/api/runs?limit=2&cursor=${page.next}&status=paused&loop=draft`,
      {},
      200,
    );
  });

  it.each(['review', 'ask', 'exhausted', 'pipeline', 'broken'])(
    'the detail of run %s',
    async (runId) => {
      const detail = await call('RunDetail', `/api/runs/${runId}`, {}, 200);
      const kinds: Record<string, string> = { pipeline: 'pipeline', broken: 'unreadable' };
      expect(detail.kind).toBe(kinds[runId] ?? 'loop');
      if (runId === 'exhausted')
        expect(detail.error).toMatchObject({ kind: 'iteration_exhausted' });
    },
  );

  it('the health report', async () => {
    const report = await call('HealthReport', '/api/health?since=7d', {}, 200);
    expect((report.loops as { loop: string }[]).map((loop) => loop.loop)).toEqual([
      'ask',
      'draft',
      'fails',
    ]);
  });

  it('answers, accepted (202 and with wait 200)', async () => {
    const seqOf = async (runId: string) => (await store.load(runId))?.seq;
    await answer(
      'review',
      { event: { type: 'review.continue' }, ifSeq: await seqOf('review') },
      202,
    );
    const waited = await answer(
      'review-2',
      {
        event: { type: 'review.retry', feedback: 'shorter' },
        ifSeq: await seqOf('review-2'),
        wait: true,
      },
      200,
    );
    expect(waited.run).toMatchObject({ status: 'paused', state: 'awaitingReview' });
  });

  it.each([
    ['/api/runs?limit=-1', 400],
    ['/api/runs/nobody', 404],
    ['/api/nothing', 404],
  ])('the error of %s', async (path, status) => {
    await call('ApiError', path, {}, status);
  });

  it.each([
    [{ event: { type: 'clarification.answer' }, ifSeq: 1 }, 400],
    [{ event: { type: 'clarification.answer', answer: '2025' }, ifSeq: 999 }, 409],
  ])('the refusal of the answer %j', async (body, status) => {
    await answer('ask', body, status, 'ApiError');
    expect(seen.has('ApiError')).toBe(true);
  });

  it('covered every schema of the document', () => {
    expect([...seen].sort()).toEqual(Object.keys(API_SCHEMAS).sort());
  });
});
