import type { AddressInfo } from 'node:net';
import { createWebSocketInspector } from '@statelyai/inspect';
import { runLoop } from 'loopchart';
import { describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { openHandles, settledHandles } from './browser/support/viewerTestKit.js';
import { correctable, counted, valid } from './support/scriptedSteps.js';

interface Received {
  type: string;
  sessionId: string;
  rootId?: string;
  name?: string;
  parentId?: string;
  definition?: string;
  snapshot?: { value?: unknown; status?: string; context?: { retryCount?: number } };
}

describe("@statelyai/inspect's WebSocket inspector on a loop (SPEC §9)", () => {
  it('receives actors and snapshots covering attempting, validating, refining and the final state, then exits cleanly', async () => {
    const before = openHandles();
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    const received: Received[] = [];
    wss.on('connection', (socket) =>
      socket.on('message', (data) => received.push(JSON.parse(String(data)) as Received)),
    );
    const { port } = wss.address() as AddressInfo;
    const inspector = createWebSocketInspector({
      url: `ws://127.0.0.1:${port}`,
      serializationDepthLimit: 40,
    });

    const outcome = await runLoop(
      {
        maxRetries: 3,
        attempt: counted((n) => `draft ${n}`),
        validate: counted((n) => (n < 3 ? correctable(`needs part ${n}`) : valid)),
      },
      'write it',
      { inspect: inspector.inspect },
    );
    expect(outcome).toMatchObject({ status: 'proceed', iterations: 2, candidate: 'draft 3' });

    const rootSnapshots = () =>
      received.filter((e) => e.type === '@xstate.snapshot' && e.sessionId === e.rootId);
    await vi.waitFor(
      () =>
        expect(rootSnapshots().at(-1)?.snapshot).toMatchObject({
          value: 'proceed',
          status: 'done',
        }),
      { timeout: 15_000, interval: 20 },
    );

    const root = received.find((e) => e.type === '@xstate.actor' && e.parentId === undefined);
    expect(root?.name).toBe('loop');
    const definition = JSON.parse(root?.definition ?? '{}');
    expect(Object.keys(definition.states)).toEqual(
      expect.arrayContaining(['attempting', 'validating', 'routing', 'refining', 'proceed']),
    );
    expect(definition.states.routing.always.length).toBeGreaterThan(3); // not cut at depth 10
    expect(definition.states.routing.always).toContainEqual(
      expect.objectContaining({ guard: 'hasRetriesLeft', target: 'refining' }),
    );

    const children = received.filter(
      (e) => e.type === '@xstate.actor' && e.parentId === root?.sessionId,
    );
    expect(new Set(children.map((e) => e.name))).toEqual(
      new Set(['attempt', 'validate', 'refine']),
    );
    const values = rootSnapshots().map((e) => e.snapshot?.value);
    expect(values).toEqual(
      expect.arrayContaining(['attempting', 'validating', 'refining', 'proceed']),
    );
    expect(values.filter((v) => v === 'refining')).toHaveLength(2);
    expect(rootSnapshots().at(-1)?.snapshot?.context?.retryCount).toBe(2);
    expect(received.some((e) => e.type === '@xstate.event')).toBe(true);

    const [client] = wss.clients;
    const clientClosed = new Promise((resolve) => client?.once('close', resolve));
    inspector.stop(); // closes its socket: the server sees it go
    await clientClosed;
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    const after = await settledHandles(before);
    expect(after.sockets).toBeLessThanOrEqual(before.sockets);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
  });
});
