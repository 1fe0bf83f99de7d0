import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCheckpointStore, runLoop } from 'loopchart';
import { type RunsServer, serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { parseInspection, RunStore, type RunViewer, startViewer } from 'loopchart/viewer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catchRequests } from '../src/tools/viewer/catchRequests.js';
import { listenOn } from '../src/tools/viewer/listenOn.js';
import { MAX_ACTOR_NAMES } from '../src/tools/viewer/RunStore.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  serverTimeouts,
} from '../src/tools/viewer/serverTimeouts.js';
import { compiledCli } from './support/compiledCli.js';
import { plainGet, rawRequest } from './support/rawHttp.js';
import { draftLoop } from './support/reviewLoops.js';
import { type ServerProcess, startServerProcess } from './support/serverProcess.js';

// Issue 29, the servers: no request may end the process. Each test here failed on 38be5e8.

const TOKEN = 'stay-up-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'loopchart-stay-up-'));
const db = join(dir, 'runs.db');
const escaped: unknown[] = [];
const recordEscape = (error: unknown) => escaped.push(error);
let cli: ReturnType<typeof compiledCli>;

beforeAll(async () => {
  process.on('uncaughtException', recordEscape);
  process.on('unhandledRejection', recordEscape);
  cli = compiledCli('stay-up');
  const store = new SqliteCheckpointStore(db);
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  for (const id of ['constructor', 'toString', 'hasOwnProperty']) {
    await runLoop({ ...draftLoop, id }, 'memo', { store, runId: `run-of-${id}` });
  }
  store.close();
}, 120_000);
afterAll(() => {
  process.off('uncaughtException', recordEscape);
  process.off('unhandledRejection', recordEscape);
  cli?.remove();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  expect(escaped).toEqual([]);
});

/** Targets that once threw inside a handler (or its logging), outside any catch. */
const HOSTILE_TARGETS = ['/api/runs/%E0', '/api/runs/%', '//', 'http://[bad/x', 'http://a:b@/'];

describe('loopchart view and loopchart serve in a child process', () => {
  const processes: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of processes) await server.stop();
  });

  const commands: Record<string, () => string[]> = {
    view: () => ['view', '--port', '0'],
    serve: () => ['serve', '--port', '0', '--db', db, '--loops', cli.loops],
  };
  it.each(Object.keys(commands))(
    '%s answers each hostile target with 400 and keeps serving',
    async (name) => {
      const args = commands[name]?.() ?? [];
      const server = await startServerProcess(cli.main, args, {
        env: { LOOPCHART_API_TOKEN: TOKEN },
      });
      processes.push(server);
      for (const target of HOSTILE_TARGETS) {
        const reply = await rawRequest(server.port, plainGet(server.port, target));
        expect({ target, status: reply.status }).toEqual({ target, status: 400 });
        expect(server.exitCode()).toBeUndefined();
      }
      const plain = await rawRequest(server.port, plainGet(server.port, '/api/runs'));
      expect(plain.status).toBe(200);
      expect(await server.stop()).toBe(0);
    },
  );
});

describe('startViewer embedded in an app', () => {
  let viewer: RunViewer;
  const failures: unknown[] = [];
  beforeAll(async () => {
    viewer = await startViewer({ port: 0, onError: (error) => failures.push(error) });
  });
  afterAll(() => viewer.close());

  it('answers hostile targets with 400 and never throws into the app', async () => {
    for (const target of HOSTILE_TARGETS) {
      const reply = await rawRequest(viewer.port, plainGet(viewer.port, target));
      expect({ target, status: reply.status }).toEqual({ target, status: 400 });
    }
    expect((await fetch(`${viewer.url}api/runs`)).status).toBe(200);
  });

  it('survives WebSocket upgrades with unparsable targets, garbage keys and garbage frames', async () => {
    const upgrade = (target: string, key: string) =>
      plainGet(
        viewer.port,
        target,
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n`,
      ).replace('Connection: close\r\n', '');
    for (const target of ['//', 'http://[bad/x', '/watch', '/']) {
      await rawRequest(viewer.port, upgrade(target, 'not base64!'), 1_000);
    }
    const garbage = await new Promise<string>((resolve) => {
      const socket = connect(viewer.port, '127.0.0.1', () =>
        socket.write(upgrade('/', 'dGhlIHNhbXBsZSBub25jZQ==')),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        // a masked frame of reserved opcode 3: a protocol error
        if (text.includes('\r\n\r\n')) socket.write(Buffer.from([0x83, 0x80, 0, 0, 0, 0]));
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 101/);
    expect((await fetch(`${viewer.url}api/runs`)).status).toBe(200);
  });
});

describe('one catch around every handler', () => {
  it('answers 500 for a handler that throws or rejects, reports it, and keeps serving', async () => {
    const heard: string[] = [];
    const server = createServer(
      catchRequests(
        (request, response) => {
          if (request.url === '/throw') throw new Error('thrown');
          if (request.url === '/reject') return Promise.reject(new Error('rejected'));
          response.end('fine');
        },
        (error) => heard.push((error as Error).message),
      ),
    );
    const { port } = await listenOn(server, 0, '127.0.0.1');
    try {
      expect((await rawRequest(port, plainGet(port, '/throw'))).status).toBe(500);
      expect((await rawRequest(port, plainGet(port, '/reject'))).status).toBe(500);
      expect((await rawRequest(port, plainGet(port, '/'))).status).toBe(200);
      expect(heard).toEqual(['thrown', 'rejected']);
    } finally {
      server.close();
    }
  });
});

describe('serveRuns', () => {
  let server: RunsServer;
  let store: SqliteCheckpointStore;
  beforeAll(async () => {
    store = new SqliteCheckpointStore(db);
    server = await serveRuns({ store, loops: { draft: draftLoop }, token: TOKEN, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    store.close();
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'refuses to answer a run of loop %s, not registered, with 422 unknown_loop',
    async (id) => {
      const runId = `run-of-${id}`;
      const before = await store.load(runId);
      const response = await fetch(`${server.url}api/runs/${runId}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ event: { type: 'review.continue' }, ifSeq: before?.seq }),
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ error: { code: 'unknown_loop' } });
      expect(await store.load(runId)).toEqual(before);
    },
  );
});

describe('request time limits', () => {
  /** Sends a request's headers one byte every 10 ms, never ending them; resolves what it got. */
  const slowHeaders = (port: number) =>
    new Promise<{ reply: string; bytesSent: number }>((resolve) => {
      let reply = '';
      let bytesSent = 0;
      const head = `GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `;
      const socket = connect(port, '127.0.0.1');
      const timer = setInterval(() => {
        socket.write(head[bytesSent] ?? 'a');
        bytesSent += 1;
      }, 10);
      socket.on('data', (chunk) => {
        reply += chunk;
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ reply, bytesSent });
      });
    });

  it('serveRuns and startViewer cut a client whose headers trickle in, with 408, at headersTimeoutMs', async () => {
    const server = await serveRuns({
      store: new MemoryCheckpointStore(),
      port: 0,
      headersTimeoutMs: 150,
    });
    const viewer = await startViewer({ port: 0, headersTimeoutMs: 150 });
    try {
      for (const port of [server.port, viewer.port]) {
        const { reply } = await slowHeaders(port);
        expect(reply).toMatch(/^HTTP\/1\.1 408/);
      }
    } finally {
      await server.close();
      await viewer.close();
    }
  }, 8_000);

  it('default to what docs/api.md says, checked often enough to cut within half a second of it', () => {
    const docs = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    const [, headers, request] =
      /Headers must arrive within (\d+) s, a request within (\d+) s/.exec(docs) ?? [];
    expect(DEFAULT_HEADERS_TIMEOUT_MS).toBe(Number(headers) * 1000);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(Number(request) * 1000);
    const options = serverTimeouts({});
    expect(options.headersTimeout).toBe(DEFAULT_HEADERS_TIMEOUT_MS);
    expect(options.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(options.connectionsCheckingInterval).toBeLessThanOrEqual(500);
  });

  it('refuses limits that are not positive integers, naming the option', async () => {
    await expect(
      serveRuns({ store: new MemoryCheckpointStore(), port: 0, headersTimeoutMs: 0 }),
    ).rejects.toThrow(/headersTimeoutMs: must be a positive integer/);
    await expect(
      startViewer({ port: 0, requestTimeoutMs: 5, headersTimeoutMs: 10 }),
    ).rejects.toThrow(/requestTimeoutMs: must not be shorter than headersTimeoutMs/);
  });
});

describe("the viewer's memory per run", () => {
  it(`keeps at most ${MAX_ACTOR_NAMES} actor names for a run that starts 20,000 child actors`, () => {
    const store = new RunStore();
    const message = (text: unknown) => parseInspection(JSON.stringify(text));
    for (let i = 0; i < 20_000; i += 1) {
      const child = {
        type: '@xstate.actor',
        sessionId: `x:${i + 1}`,
        rootId: 'x:0',
        name: `child${i}`,
      };
      store.ingest('c1', message(child) ?? expect.fail('not an inspection message'));
    }
    const [run] = store.list();
    expect(store.held(run?.id ?? '')).toEqual({ events: 500, actorNames: MAX_ACTOR_NAMES });
    // the newest children keep their names
    const last = {
      type: '@xstate.event',
      sessionId: 'x:20000',
      rootId: 'x:0',
      event: { type: 'go' },
    };
    store.ingest('c1', message(last) ?? expect.fail('not an inspection message'));
    expect(store.events(run?.id ?? '').at(-1)).toMatchObject({ actor: 'child19999', type: 'go' });
  });
});
