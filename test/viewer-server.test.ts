import { request } from 'node:http';
import { createServer, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createWebSocketInspector } from '@statelyai/inspect';
import { runLoop } from 'loopchart';
import { connectToViewer, type RunView, type RunViewer, startViewer } from 'loopchart/viewer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import {
  exhaustingLoop,
  openHandles,
  openSocket,
  runReported,
  settledHandles,
} from './browser/support/viewerTestKit.js';

/** The first chart loads ELK (1.6 MB) and warms it up; a busy machine is slow: wait long enough. */
const LAYOUT_WAIT = { timeout: 15_000, interval: 50 };

let viewer: RunViewer;
beforeAll(async () => {
  viewer = await startViewer({ port: 0 });
});
afterAll(() => viewer.close());

const runs = async (at: RunViewer = viewer): Promise<RunView[]> =>
  (await fetch(`${at.url}api/runs`)).json() as Promise<RunView[]>;
const newest = async (at: RunViewer = viewer) => (await runs(at)).at(-1);

/** A GET with a chosen Host header (fetch does not let us set it). */
const getWithHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

describe('the run viewer server', () => {
  it('binds the loopback interface by default and is not reachable on another one', async () => {
    expect(viewer.host).toBe('127.0.0.1');
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((net) => net && net.family === 'IPv4' && !net.internal)?.address;
    const reachable = external
      ? await fetch(`http://${external}:${viewer.port}/`).then(
          () => true,
          () => false,
        )
      : false;
    expect(reachable).toBe(false);
  });

  it('serves one self-contained page under a strict Content-Security-Policy', async () => {
    const response = await fetch(viewer.url);
    const html = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/,
    );
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const urls = html.match(/https?:\/\/[^'"\s]*/g) ?? [];
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg'])); // a namespace, not a fetch
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('refuses requests for other host names (DNS rebinding) and foreign origins on its sockets', async () => {
    expect(await getWithHost(viewer.url, 'evil.example:80')).toBe(421);
    expect(await getWithHost(viewer.url, `localhost:${viewer.port}`)).toBe(200);
    const watch = `ws://127.0.0.1:${viewer.port}/watch`;
    await expect(openSocket(watch, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(openSocket(viewer.inspectUrl, { origin: 'http://evil.example' })).rejects.toThrow(
      /403/,
    );
    const own = await openSocket(watch, { origin: `http://127.0.0.1:${viewer.port}` });
    own.close();
  });

  it('ignores malformed messages without crashing, then still takes a real run', async () => {
    const socket = await openSocket(viewer.inspectUrl);
    let deepStates = '{}';
    for (let i = 0; i < 20_000; i += 1) deepStates = `{"initial":"a","states":{"a":${deepStates}}}`;
    const garbage = [
      'not json',
      '{"type":"@xstate.snapshot"}',
      JSON.stringify({
        type: '@xstate.actor',
        sessionId: 'g:0',
        rootId: 'g:0',
        definition: '{oops',
      }),
      JSON.stringify({
        type: '@xstate.actor',
        sessionId: 'g:1',
        rootId: 'g:1',
        definition: '[1,2]',
      }),
      JSON.stringify({
        type: '@xstate.actor',
        sessionId: 'g:2',
        rootId: 'g:2',
        definition: '{"initial":"nope","states":{"a":{}}}',
      }),
      JSON.stringify({
        type: '@xstate.actor',
        sessionId: 'g:3',
        rootId: 'g:3',
        definition: deepStates,
      }),
      JSON.stringify({
        type: '@xstate.snapshot',
        sessionId: 'g:4',
        snapshot: { value: { a: { b: 1 } }, context: 'x' },
      }),
    ];
    for (const text of garbage) socket.send(text);
    socket.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    await vi.waitFor(async () => {
      const ids = (await runs()).map((run) => run.id);
      expect(ids.filter((id) => id.includes('/g:'))).toHaveLength(5);
    }, LAYOUT_WAIT);
    await vi.waitFor(async () => {
      const bad = (await runs()).filter((run) => /\/g:[0-3]$/.test(run.id));
      expect(bad.map((run) => Boolean(run.chartError))).toEqual([true, true, true, true]);
    }, LAYOUT_WAIT);
    socket.close();

    const outcome = await runReported(viewer.inspectUrl, exhaustingLoop(2), 'q');
    expect(outcome.status).toBe('iteration_exhausted');
    await vi.waitFor(async () => {
      expect(await newest()).toMatchObject({
        machineId: 'loop',
        status: 'done',
        retryCount: 2,
        maxRetries: 2,
        chartId: expect.any(String),
      });
    }, LAYOUT_WAIT);
  });

  it('closes a reporter that sends more than maxMessageBytes, and carries on', async () => {
    const small = await startViewer({ port: 0, maxMessageBytes: 1024 });
    try {
      const socket = await openSocket(small.inspectUrl);
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      socket.send('x'.repeat(4096));
      expect(await closed).toBe(1009);
      expect((await fetch(small.url)).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it(`keeps at most maxEventsPerRun events per run and at most maxRuns runs`, async () => {
    const bounded = await startViewer({ port: 0, maxEventsPerRun: 10, maxRuns: 2 });
    try {
      for (let i = 0; i < 3; i += 1) await runReported(bounded.inspectUrl, exhaustingLoop(3), 'q');
      await vi.waitFor(
        async () =>
          expect((await runs(bounded)).map((run) => run.label)).toEqual(['loop #2', 'loop #3']),
        LAYOUT_WAIT,
      );
      const run = (await runs(bounded))[1] as RunView;
      const detail = await (
        await fetch(`${bounded.url}api/runs/${encodeURIComponent(run.id)}`)
      ).json();
      expect(detail.events).toHaveLength(10);
      expect(run.eventCount).toBeGreaterThan(40);
      expect(run.droppedEvents).toBe(run.eventCount - 10);
    } finally {
      await bounded.close();
    }
  });

  it("draws runs reported by @statelyai/inspect's own WebSocket inspector", async () => {
    const inspector = createWebSocketInspector({
      url: viewer.inspectUrl,
      serializationDepthLimit: 40,
    });
    const outcome = await runLoop(exhaustingLoop(1), 'q', { inspect: inspector.inspect });
    expect(outcome.status).toBe('iteration_exhausted');
    await vi.waitFor(
      async () =>
        expect(await newest()).toMatchObject({
          status: 'done',
          retryCount: 1,
          chartId: expect.any(String),
        }),
      LAYOUT_WAIT,
    );
    inspector.stop();
  });

  it('streams charts and runs to a watching page over /watch, each chart before the runs drawn with it', async () => {
    const { watcher, messages } = await watch(viewer);
    await runReported(viewer.inspectUrl, exhaustingLoop(1), 'q');
    const ours = () => messages.filter((m) => m.run?.id === viewer.runs().at(-1)?.id);
    await vi.waitFor(
      () =>
        expect(ours().at(-1)?.run).toMatchObject({ status: 'done', chartId: expect.any(String) }),
      LAYOUT_WAIT,
    );
    const chartId = ours().at(-1)?.run?.chartId;
    const firstChart = messages.findIndex((m) => m.type === 'chart' && m.id === chartId);
    const firstDrawn = messages.findIndex((m) => m.run?.chartId === chartId);
    expect(firstChart).toBeGreaterThanOrEqual(0);
    expect(firstChart).toBeLessThan(firstDrawn);
    expect(messages.filter((m) => m.type === 'chart' && m.id === chartId)).toHaveLength(1);
    watcher.close();
  });

  it('sends a page at most one update per run every 100 ms, the latest view winning, the end at once', async () => {
    const fresh = await startViewer({ port: 0 });
    try {
      const { watcher, messages } = await watch(fresh);
      const reporter = await openSocket(fresh.inspectUrl);
      const root = { sessionId: 'x:0', rootId: 'x:0' };
      const snapshot = (status: string) =>
        JSON.stringify({
          type: '@xstate.snapshot',
          ...root,
          event: { type: 'tick' },
          snapshot: { status, value: 'working', context: {} },
        });
      const started = performance.now();
      reporter.send(snapshot('active'));
      for (let i = 0; i < 300; i += 1) {
        reporter.send(JSON.stringify({ type: '@xstate.event', ...root, event: { type: `e${i}` } }));
      }
      reporter.send(snapshot('done'));
      await vi.waitFor(() => expect(messages.at(-1)?.run?.status).toBe('done'), LAYOUT_WAIT);
      const elapsed = performance.now() - started;
      const updates = messages.filter((m) => m.type === 'run');
      expect(updates.at(-1)?.run?.eventCount).toBe(302);
      expect(updates[0]?.run?.eventCount).toBe(1); // the first change goes out at once
      // one at once, then at most one per window while it changed, and the end at once
      expect(updates.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 100));
      expect(updates.length).toBeLessThan(30);
      reporter.close();
      watcher.close();
    } finally {
      await fresh.close();
    }
  });
});

/** Watches a viewer like its page does, recording every message from the first one. */
async function watch(at: RunViewer) {
  const watcher = new WebSocket(`ws://127.0.0.1:${at.port}/watch`, {
    headers: { origin: `http://127.0.0.1:${at.port}` },
  });
  const messages: Array<{ type: string; id?: string; run?: RunView }> = [];
  watcher.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    watcher.once('open', resolve);
    watcher.once('error', reject);
  });
  return { watcher, messages };
}

describe('connectToViewer', () => {
  it('tries once when no viewer listens: ready is false, one error, no retry, nothing left open', async () => {
    const before = openHandles();
    const port = await freePort();
    const onError = vi.fn();
    const connection = connectToViewer(`ws://127.0.0.1:${port}`, { onError });
    const outcome = await runLoop(exhaustingLoop(1), 'q', { inspect: connection.inspect });
    expect(outcome.status).toBe('iteration_exhausted');
    expect(await connection.ready).toBe(false);
    await connection.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/ECONNREFUSED/);
    const after = await settledHandles(before);
    expect(after.sockets).toBeLessThanOrEqual(before.sockets);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
  });

  it('does not hold the process open once connected (its socket is unref-ed)', async () => {
    const fresh = await startViewer({ port: 0 });
    // Sockets to the viewer that keep the event loop alive (Node lists only ref-ed handles).
    const keepingAlive = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })
        ._getActiveHandles()
        .filter((h) => h instanceof Socket && (h.connecting || h.remotePort === fresh.port)).length;
    try {
      const connection = connectToViewer(fresh.inspectUrl);
      expect(keepingAlive()).toBe(1); // while connecting it does hold the process (bounded by a timeout)
      expect(await connection.ready).toBe(true);
      expect(keepingAlive()).toBe(0); // connected, and no longer holding the process
      await runLoop(exhaustingLoop(1), 'q', { inspect: connection.inspect });
      await connection.close();
      await vi.waitFor(
        () => expect(fresh.runs()).toMatchObject([{ status: 'done', retryCount: 1 }]),
        LAYOUT_WAIT,
      );
    } finally {
      await fresh.close();
    }
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
