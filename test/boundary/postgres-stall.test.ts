/**
 * Issue 29: a real Postgres store behind a TCP proxy that stops forwarding (a network that
 * silently drops everything) cannot hold a run past its deadline: `runLoop` ends `ceiling_stop`
 * naming the save, `resumeLoop` fails `store_timeout`, each within `deadlineMs` + 1 s. Real time,
 * as the store is real: the test waits for the run to settle, it never sleeps.
 */

import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { isCheckpointError, type LoopConfig, resumeLoop, runLoop } from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';

const reachable = await postgresReachable();
const schema = schemaName('stall');

/** Forwards TCP to Postgres until `stall()`; from then on it drops every byte both ways. */
class StallingProxy {
  readonly #sockets = new Set<Socket>();
  #stalled = false;
  #server: Server | undefined;
  port = 0;

  async start(target: URL): Promise<void> {
    this.#server = createServer((client) => {
      const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.#sockets.add(from);
        from.on('data', (chunk) => {
          if (!this.#stalled) to.write(chunk);
        });
        from.on('error', () => {});
        from.on('close', () => to.destroy());
      }
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  stall(): void {
    this.#stalled = true;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

const proxy = new StallingProxy();
let store: PostgresCheckpointStore;
beforeAll(async () => {
  if (!reachable) return;
  const target = new URL(PG_URL);
  await proxy.start(target);
  const through = new URL(PG_URL);
  through.port = String(proxy.port);
  store = new PostgresCheckpointStore({ connectionString: through.toString(), schema });
  await store.setup();
});
afterAll(async () => {
  if (!reachable) return;
  await proxy.close();
  await store.close().catch(() => {});
  await dropSchema(schema);
});

const DEADLINE_MS = 1500;
const reviewed: LoopConfig<string, string> = {
  id: 'reviewed',
  deadlineMs: DEADLINE_MS,
  review: { beforeProceed: true },
  attempt: ({ input }) => `draft of ${input}`,
  validate: () => ({ valid: true }),
};

async function timed<T>(run: Promise<T>) {
  const started = performance.now();
  const result = await run.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...result, ms: performance.now() - started };
}

describe.runIf(reachable)('a Postgres store behind a proxy that stops forwarding', () => {
  it('cannot hold runLoop or resumeLoop past deadlineMs + 1 s', async () => {
    const paused = await runLoop(reviewed, 'memo', { store, runId: 'paused' });
    expect(paused.status).toBe('paused');
    proxy.stall();

    const run = await timed(runLoop(reviewed, 'memo', { store, runId: 'fresh' }));
    expect(run.value).toMatchObject({
      status: 'ceiling_stop',
      error: { cap: 'deadlineMs', waitingFor: { operation: 'save', checkpoint: 1, lastSaved: 0 } },
    });
    expect(run.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    expect(run.ms).toBeLessThan(DEADLINE_MS + 1000);

    const resumed = await timed(
      resumeLoop(reviewed, { store, runId: 'paused', event: { type: 'review.continue' } }),
    );
    expect(isCheckpointError(resumed.error) && resumed.error.code).toBe('store_timeout');
    expect(resumed.ms).toBeLessThan(DEADLINE_MS + 1000);
  });
});
