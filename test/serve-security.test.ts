import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLoopConfigError, runLoop } from 'loopchart';
import { type RunsServer, serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftLoop } from './support/reviewLoops.js';

const TOKEN = 'security-token-9f8e7d6c5b4a3210';
const dir = mkdtempSync(join(tmpdir(), 'loopchart-serve-security-'));
const store = new SqliteCheckpointStore(join(dir, 'runs.db'));
const lines: string[] = [];
let server: RunsServer;

/** A raw HTTP request, so the test controls every header (fetch will not set Host). */
function send(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: string | string[],
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method, path, headers },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    req.on('error', reject);
    for (const chunk of Array.isArray(body) ? body : body === undefined ? [] : [body])
      req.write(chunk);
    req.end();
  });
}

const host = () => `127.0.0.1:${server.port}`;
const answerBody = async () =>
  JSON.stringify({ event: { type: 'review.continue' }, ifSeq: (await store.load('review'))?.seq });
const post = async (headers: Record<string, string | number>, body?: string | string[]) =>
  send(
    'POST',
    '/api/runs/review/answer',
    {
      host: host(),
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
      ...headers,
    },
    body ?? (await answerBody()),
  );

beforeAll(async () => {
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  server = await serveRuns({
    store,
    loops: { draft: draftLoop },
    token: TOKEN,
    port: 0,
    maxBodyBytes: 1024,
    log: (line) => lines.push(line),
  });
});
afterAll(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('DNS rebinding', () => {
  it.each(['GET', 'POST'])(
    'refuses a %s addressed to another host name with 421',
    async (method) => {
      const before = await store.load('review');
      const path = method === 'GET' ? '/api/runs' : '/api/runs/review/answer';
      const reply = await send(
        method,
        path,
        {
          host: `attacker.example:${server.port}`,
          'content-type': 'application/json',
          authorization: `Bearer ${TOKEN}`,
        },
        method === 'POST' ? await answerBody() : undefined,
      );
      expect(reply.status).toBe(421);
      expect(reply.text).not.toContain('review');
      expect(await store.load('review')).toEqual(before);
    },
  );

  it('serves the same request addressed to the loopback name', async () => {
    expect((await send('GET', '/api/runs', { host: host() })).status).toBe(200);
    expect((await send('GET', '/api/runs', { host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('cross-origin writes', () => {
  it('refuses an answer from another origin with 403, even with the token', async () => {
    const before = await store.load('review');
    const reply = await post({ origin: 'https://attacker.example' });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text).error.code).toBe('forbidden');
    expect(await store.load('review')).toEqual(before);
  });

  it('answers no CORS preflight and sends no Access-Control headers', async () => {
    const reply = await send('OPTIONS', '/api/runs/review/answer', {
      host: host(),
      origin: 'https://attacker.example',
      'access-control-request-method': 'POST',
    });
    expect(reply.status).toBe(405);
    expect(Object.keys(reply.headers).filter((name) => name.startsWith('access-control'))).toEqual(
      [],
    );
  });

  it('refuses a body a plain HTML form can send (text/plain) with 415', async () => {
    const before = await store.load('review');
    const reply = await post({ 'content-type': 'text/plain' });
    expect(reply.status).toBe(415);
    expect(await store.load('review')).toEqual(before);
  });
});

describe('oversized bodies', () => {
  it('refuses a declared content-length over the limit with 413 before reading it', async () => {
    const before = await store.load('review');
    const body = JSON.stringify({
      event: { type: 'review.modify', candidate: 'x'.repeat(5000) },
      ifSeq: before?.seq,
    });
    const reply = await post({ 'content-length': Buffer.byteLength(body) }, body);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).error.code).toBe('payload_too_large');
    expect(await store.load('review')).toEqual(before);
  });

  it('cuts off a chunked body that streams past the limit with 413', async () => {
    const before = await store.load('review');
    const chunks = [
      '{"event":{"type":"review.modify","candidate":"',
      ...Array(8).fill('y'.repeat(400)),
      '"},"ifSeq":1}',
    ];
    const reply = await post({ 'transfer-encoding': 'chunked' }, chunks);
    expect(reply.status).toBe(413);
    expect(await store.load('review')).toEqual(before);
  });
});

describe('the token', () => {
  it('is never logged, neither the right one nor a wrong one, nor echoed in a reply', async () => {
    const wrong = `${TOKEN}-wrong`;
    const replies = [
      await post({ authorization: `Bearer ${wrong}` }),
      await send('GET', `/api/runs?token=${TOKEN}`, {
        host: host(),
        authorization: `Bearer ${TOKEN}`,
      }),
      await post({ 'content-type': 'text/plain' }),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([401, 400, 415]);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const text of [...lines, ...replies.map((reply) => reply.text)]) {
      expect(text).not.toContain(TOKEN);
    }
  });

  it('is refused at creation when shorter than 16 characters, naming the field', async () => {
    const error = await serveRuns({ store, token: 'short', port: 0 }).catch((e: unknown) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toContain('token');
  });

  it('is required to bind beyond loopback, and then guards reads too', async () => {
    const error = await serveRuns({ store, host: '0.0.0.0', port: 0 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/token: required when host is 0\.0\.0\.0/);
    const open = await serveRuns({ store, host: '0.0.0.0', port: 0, token: TOKEN });
    try {
      const url = `http://127.0.0.1:${open.port}/api/runs`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        200,
      );
    } finally {
      await open.close();
    }
  });
});
