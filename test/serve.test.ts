import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckpointStore, MemoryCheckpointStore, runLoop } from 'loopchart';
import {
  type AnswerResponse,
  type ApiError,
  type LoopRunDetail,
  type RunList,
  type RunsServer,
  serveRuns,
} from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askLoop, draftLoop } from './support/reviewLoops.js';

const TOKEN = 'test-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'loopchart-serve-'));
const store = new SqliteCheckpointStore(join(dir, 'runs.db'));
let server: RunsServer;

/** A reply's body as the test reads it: the success fields, or `error`. */
type Reply<T> = T & Partial<ApiError>;
type Answered = Reply<Omit<AnswerResponse, 'run'> & { run: LoopRunDetail }>;

const get = async <T = LoopRunDetail>(path: string) => {
  const response = await fetch(new URL(path, server.url));
  return { status: response.status, body: (await response.json()) as Reply<T> };
};
const answer = async (runId: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(new URL(`/api/runs/${runId}/answer`, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answered };
};

beforeAll(async () => {
  for (let i = 1; i <= 5; i += 1) {
    await runLoop(draftLoop, `memo ${i}`, { store, runId: `draft-${i}` });
  }
  await runLoop(askLoop, 'q3', { store, runId: 'ask-1' });
  await runLoop({ id: 'plain', attempt: () => 'x', validate: () => ({ valid: true }) }, 'x', {
    store,
    runId: 'done-1',
  });
  server = await serveRuns({
    store,
    loops: { draft: draftLoop, ask: askLoop },
    token: TOKEN,
    port: 0,
  });
});
afterAll(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/runs', () => {
  it('lists every run, most recently saved first', async () => {
    const { status, body } = await get<RunList>('/api/runs');
    expect(status).toBe(200);
    expect(body.runs).toHaveLength(7);
    const times = body.runs.map((run: { updatedAt: number }) => run.updatedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(body.next).toBeNull();
  });

  it('filters by status and loop', async () => {
    const paused = await get<RunList>('/api/runs?status=paused');
    expect(paused.body.runs.map((run: { runId: string }) => run.runId).sort()).toEqual([
      'ask-1',
      'draft-1',
      'draft-2',
      'draft-3',
      'draft-4',
      'draft-5',
    ]);
    const ask = await get<RunList>('/api/runs?loop=ask');
    expect(ask.body.runs).toMatchObject([{ runId: 'ask-1', state: 'awaitingClarification' }]);
    const done = await get<RunList>('/api/runs?status=done&loop=plain');
    expect(done.body.runs).toMatchObject([{ runId: 'done-1', status: 'done', state: 'proceed' }]);
    const future = await get<RunList>(
      `/api/runs?since=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`,
    );
    expect(future.body.runs).toEqual([]);
  });

  it('pages with a cursor: no run twice, none left out', async () => {
    const seen: string[] = [];
    let path: string | null = '/api/runs?limit=3';
    let pages = 0;
    while (path) {
      const page: RunList = (await get<RunList>(path)).body;
      expect(page.runs.length).toBeLessThanOrEqual(3);
      seen.push(...page.runs.map((run) => run.runId));
      pages += 1;
      path = page.next ? `/api/runs?limit=3&cursor=${page.next}` : null;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
  });

  it.each([
    ['status=lost', 'status'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['since=yesterday', 'since'],
    ['cursor=garbage', 'cursor'],
    ['colour=red', 'colour'],
    ['status=paused&status=done', 'repeated'],
  ])('answers %s with 400 and a message naming the problem', async (query, word) => {
    const { status, body } = await get<RunList>(`/api/runs?${query}`);
    expect(status).toBe(400);
    expect(body.error?.code).toBe('bad_request');
    expect(body.error?.message).toContain(word);
  });
});

describe('GET /api/runs/{id}', () => {
  it('shows a paused review: the pending request, its seq and the events it takes', async () => {
    const { status, body } = await get('/api/runs/draft-1');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      kind: 'loop',
      runId: 'draft-1',
      status: 'paused',
      state: 'awaitingReview',
      pending: { kind: 'review', reason: 'beforeProceed', candidate: 'draft of memo 1' },
      answerWith: [
        'review.continue',
        'review.modify',
        'review.retry',
        'review.abort',
        'loop.abort',
      ],
      outcome: null,
      error: null,
    });
    expect(body.seq).toBeGreaterThan(0);
    expect(body.trace.length).toBeGreaterThan(0);
  });

  it('shows a finished run with its outcome and no error', async () => {
    const { body } = await get('/api/runs/done-1');
    expect(body).toMatchObject({ status: 'done', pending: null, answerWith: [] });
    expect(body.outcome).toMatchObject({ status: 'proceed', ok: true, candidate: 'x' });
    expect(body.outcome).not.toHaveProperty('trace');
  });

  it('finds a run id with reserved characters, percent-encoded; bad encoding is 400', async () => {
    await runLoop(draftLoop, 'x', { store, runId: 'team/a b?' });
    const { status, body } = await get(`/api/runs/${encodeURIComponent('team/a b?')}`);
    expect([status, body.runId]).toEqual([200, 'team/a b?']);
    expect((await get('/api/runs/%E0%A4%A')).status).toBe(400);
  });

  it('answers 404 for an unknown run', async () => {
    const { status, body } = await get('/api/runs/nobody');
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'not_found' });
  });
});

describe('POST /api/runs/{id}/answer', () => {
  it('without the token is 401 and leaves the row byte-identical', async () => {
    const before = await store.load('draft-2');
    const none = await answer(
      'draft-2',
      { event: { type: 'review.continue' }, ifSeq: before?.seq },
      { authorization: '' },
    );
    const wrong = await answer(
      'draft-2',
      { event: { type: 'review.continue' }, ifSeq: before?.seq },
      { authorization: `Bearer ${TOKEN}x` },
    );
    expect([none.status, wrong.status]).toEqual([401, 401]);
    expect(none.body.error?.code).toBe('unauthorized');
    expect(await store.load('draft-2')).toEqual(before);
  });

  it('with the token answers the review and the run proceeds', async () => {
    const { seq } = (await get('/api/runs/draft-3')).body;
    const { status, body } = await answer('draft-3', {
      event: { type: 'review.continue' },
      ifSeq: seq,
      wait: true,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ accepted: true, runId: 'draft-3' });
    expect(body.checkpoint.seq).toBeGreaterThan(seq);
    expect(body.run).toMatchObject({
      status: 'done',
      outcome: { status: 'proceed', candidate: 'draft of memo 3' },
    });
    expect(await store.load('draft-3')).toMatchObject({ status: 'done', state: 'proceed' });
  });

  it('without wait replies 202 once the answer took, and the run finishes in the server', async () => {
    const { seq } = (await get('/api/runs/draft-4')).body;
    const { status, body } = await answer('draft-4', {
      event: { type: 'review.continue' },
      ifSeq: seq,
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({ accepted: true, run: null });
    expect(body.checkpoint.seq).toBeGreaterThan(seq);
    expect(body.checkpoint.state).not.toBe('awaitingReview');
    await expect.poll(async () => (await store.load('draft-4'))?.state).toBe('proceed');
  });

  it('answers a clarification question with one of its options', async () => {
    const { body: run } = await get('/api/runs/ask-1');
    expect(run.pending).toMatchObject({
      kind: 'clarification',
      question: 'Which year?',
      options: ['2025', '2026'],
    });
    const { status, body } = await answer('ask-1', {
      event: { type: 'clarification.answer', answer: '2026' },
      ifSeq: run.seq,
      wait: true,
    });
    expect(status).toBe(200);
    expect(body.run.outcome).toMatchObject({ status: 'proceed', candidate: 'report for 2026' });
  });

  it('a stale ifSeq gets 409 and changes nothing', async () => {
    const before = await store.load('draft-5');
    const { status, body } = await answer('draft-5', {
      event: { type: 'review.continue' },
      ifSeq: (before?.seq ?? 0) - 1,
    });
    expect(status).toBe(409);
    expect(body.error?.code).toBe('conflict');
    expect(await store.load('draft-5')).toEqual(before);
  });

  it('answering a finished run is 409 not_waiting', async () => {
    const { seq } = (await get('/api/runs/done-1')).body;
    const { status, body } = await answer('done-1', {
      event: { type: 'review.continue' },
      ifSeq: seq,
    });
    expect(status).toBe(409);
    expect(body.error?.code).toBe('not_waiting');
  });

  it.each([
    [{ event: { type: 'review.modify' }, ifSeq: 1 }, 'input or a candidate'],
    [{ event: { type: 'review.launch' }, ifSeq: 1 }, 'event.type'],
    [{ event: { type: 'review.continue' } }, 'ifSeq'],
    [{ event: { type: 'review.continue' }, ifSeq: 1, extra: true }, 'extra'],
    ['continue', '(root)'],
  ])('refuses the malformed body %j with 400, the row unchanged', async (payload, word) => {
    const before = await store.load('draft-5');
    const { status, body } = await answer('draft-5', payload);
    expect(status).toBe(400);
    expect(body.error?.message).toContain(word);
    expect(await store.load('draft-5')).toEqual(before);
  });

  it('refuses a run of a loop the server was not given with 422 unknown_loop', async () => {
    await runLoop({ ...draftLoop, id: 'other' }, 'm', { store, runId: 'other-1' });
    const { seq } = (await get('/api/runs/other-1')).body;
    const { status, body } = await answer('other-1', {
      event: { type: 'review.continue' },
      ifSeq: seq,
    });
    expect(status).toBe(422);
    expect(body.error?.code).toBe('unknown_loop');
  });
});

describe('a server without a token', () => {
  it('serves reads and refuses every answer with 403 answers_disabled', async () => {
    const readOnly = await serveRuns({ store, loops: { draft: draftLoop }, port: 0 });
    try {
      expect((await fetch(new URL('/api/runs/draft-5', readOnly.url))).status).toBe(200);
      const before = await store.load('draft-5');
      const response = await fetch(new URL('/api/runs/draft-5/answer', readOnly.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ event: { type: 'review.continue' }, ifSeq: before?.seq }),
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as ApiError).error.code).toBe('answers_disabled');
      expect(await store.load('draft-5')).toEqual(before);
    } finally {
      await readOnly.close();
    }
  });
});

describe('registered loops', () => {
  it('must be keyed by the id their runs are stored under: a LoopConfigError at creation names the entry', async () => {
    const error = await serveRuns({
      store,
      loops: { drafts: draftLoop },
      token: TOKEN,
      port: 0,
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('LoopConfigError');
    expect((error as Error).message).toContain("loops.drafts: its id is 'draft'");
  });
});

describe('a run that fails after its answer was accepted', () => {
  it('is reported to log once the 202 went out; a refused answer is only the reply', async () => {
    const memory = new MemoryCheckpointStore();
    let failValidating = false;
    const flaky: CheckpointStore = {
      save: async (record) => {
        if (failValidating && record.state === 'validating') throw new Error('disk full');
        return memory.save(record);
      },
      load: (runId) => memory.load(runId),
      list: (options) => memory.list(options),
      delete: (runId) => memory.delete(runId),
    };
    await runLoop(draftLoop, 'memo', { store: flaky, runId: 'flaky' });
    failValidating = true;
    const lines: string[] = [];
    const flakyServer = await serveRuns({
      store: flaky,
      loops: { draft: draftLoop },
      token: TOKEN,
      port: 0,
      log: (line) => lines.push(line),
    });
    try {
      const post = (event: unknown, ifSeq: number | undefined) =>
        fetch(new URL('/api/runs/flaky/answer', flakyServer.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ event, ifSeq }),
        });
      const seq = (await memory.load('flaky'))?.seq;
      const refused = await post({ type: 'clarification.answer', answer: 'x' }, seq);
      expect(refused.status).toBe(409);
      const accepted = await post({ type: 'review.retry', feedback: 'again' }, seq);
      expect(accepted.status).toBe(202);
      await flakyServer.close();
      const failures = lines.filter((line) => line.startsWith('run '));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(/^run flaky failed after an answer: .*disk full/);
    } finally {
      await flakyServer.close();
    }
  });
});
