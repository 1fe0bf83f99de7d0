/**
 * What the Postgres store adds to the shared contract (test/postgres-store.test.ts runs that):
 * its schema setup, options, the run queue and its leases, each on the real server.
 */
import { randomUUID } from 'node:crypto';
import { type CheckpointRecord, isCheckpointError, type Lease, runLoop } from 'loopchart';
import { PostgresCheckpointStore, type PostgresStoreOptions } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred, valid } from './support/scriptedSteps.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './support/postgresServer.js';

const reachable = await postgresReachable();
const schema = schemaName('store');
const stores: PostgresCheckpointStore[] = [];
const open = (options: PostgresStoreOptions = {}) => {
  const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema, ...options });
  stores.push(store);
  return store;
};
let store: PostgresCheckpointStore;
const newId = () => `pg-${randomUUID()}`;
const loopName = () => `loop-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isCheckpointError(error) ? error.code : String(error)),
  );
const record = (runId: string, seq: number, fields: Partial<CheckpointRecord> = {}) => ({
  runId,
  seq,
  status: 'running' as const,
  state: 'attempting',
  machineId: 'loop',
  updatedAt: Date.now(),
  data: `{"seq":${seq}}`,
  ...fields,
});
const claimOne = async (loop: string, owner = 'test', leaseMs = 60_000) => {
  const [run] = await store.claim({ owner, loops: [loop], limit: 1, leaseMs });
  return run;
};

describe.skipIf(!reachable)('PostgresCheckpointStore', () => {
  beforeAll(async () => {
    store = open();
    await store.setup();
  });
  afterAll(async () => {
    for (const opened of stores) await opened.close();
    if (reachable) await dropSchema(schema);
  });

  describe('setup and options', () => {
    it('creates its schema once, even when many processes set it up at the same time', async () => {
      const fresh = schemaName('setup');
      try {
        const many = Array.from({ length: 5 }, () => open({ schema: fresh }));
        await Promise.all(many.map((s) => s.setup()));
        await many[0]?.setup(); // and again: idempotent
        const { rows } = await store.pool.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
          [fresh],
        );
        expect(rows.map((row) => row.table_name)).toEqual([
          'loopchart_checkpoints',
          'loopchart_queue',
        ]);
      } finally {
        await dropSchema(fresh);
      }
    });

    it('says to call setup() when its tables do not exist', async () => {
      const missing = open({ schema: schemaName('missing') });
      await expect(missing.load('x')).rejects.toThrow(
        /tables loopchart_missing_\w+\.loopchart_\* do not exist; call `await store\.setup\(\)`/,
      );
    });

    it('keeps stores with another table prefix apart in one schema', async () => {
      const other = open({ tablePrefix: 'other_' });
      await other.setup();
      const runId = newId();
      await other.save(record(runId, 1));
      expect(await other.load(runId)).toMatchObject({ runId, seq: 1 });
      expect(await store.load(runId)).toBeUndefined();
    });

    it('throws LoopConfigError naming every bad option', () => {
      const bad = () =>
        new PostgresCheckpointStore({
          schema: 'Robert"; DROP TABLE x',
          tablePrefix: '1-bad',
          maxConnections: 0,
          synchronousCommit: 'sometimes' as never,
          pool: store.pool,
          connectionString: PG_URL,
        });
      expect(bad).toThrowErrorMatchingInlineSnapshot(`
        [LoopConfigError: loopchart: invalid Postgres store options
          - schema: must be a lower-case identifier (a-z, 0-9, _), 1 to 63 characters
          - tablePrefix: must be lower-case (a-z, 0-9, _), at most 40 characters
          - maxConnections: must be an integer from 1 to 1000
          - synchronousCommit: must be 'on' or 'off'
          - pool: pass either pool or connectionString, not both]
      `);
    });

    it("turns synchronous commit off on its own pool's connections when asked", async () => {
      const relaxed = open({ synchronousCommit: 'off' });
      const setting = async (s: PostgresCheckpointStore) =>
        (await s.pool.query('SHOW synchronous_commit')).rows[0]?.synchronous_commit;
      expect(await setting(relaxed)).toBe('off');
      expect(await setting(store)).toBe('on');
      const borrowed = () =>
        new PostgresCheckpointStore({ pool: store.pool, synchronousCommit: 'off' });
      expect(borrowed).toThrow(/synchronousCommit: set it on the pool you pass/);
    });

    it('uses a pool it was given and leaves it open on close()', async () => {
      const borrowed = new PostgresCheckpointStore({ pool: store.pool, schema });
      await borrowed.close();
      expect((await store.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });
  });

  describe('the queue', () => {
    it('queues a run once; a batch with a queued run queues none', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop, input: { a: 1 } });
      const again = store.enqueue({ loop, input: 2, runId });
      await expect(again).rejects.toThrow(`run '${runId}' is queued already`);
      const fresh = newId();
      const batch = store.enqueueAll([
        { loop, runId: fresh },
        { loop, runId },
      ]);
      expect(await codeOf(batch)).toBe('conflict');
      expect(await store.entry(fresh)).toBeUndefined();
      expect(await store.entry(runId)).toMatchObject({ runId, loop, state: 'queued', claims: 0 });
    });

    it('refuses a run it cannot store, naming the field', async () => {
      const bad = store.enqueueAll([
        { loop: 'x', input: 1 },
        { loop: '', input: { big: 1n } },
      ]);
      await expect(bad).rejects.toThrowErrorMatchingInlineSnapshot(`
        [LoopConfigError: loopchart: invalid run to enqueue
          - runs[1].loop: must name one of the workers' loops (1 to 200 characters)
          - runs[1].input: must be JSON-safe]
      `);
    });

    it('hands each run to exactly one of many concurrent claimers, and only its loops', async () => {
      const loop = loopName();
      const runIds = await store.enqueueAll(
        Array.from({ length: 60 }, (_, n) => ({ loop, input: n })),
      );
      const otherLoop = await store.enqueue({ loop: loopName() });
      const claimers = Array.from({ length: 6 }, () => open());
      // Each claims once before any claims again: a claimer whose connection opened first cannot
      // drain the queue alone (6 × 4 < 60, so every first claim gets runs).
      const allClaimedOnce = deferred<void>();
      let firstClaims = 0;
      const claimed = await Promise.all(
        claimers.map(async (claimer, i) => {
          const mine: string[] = [];
          for (let round = 0; ; round += 1) {
            const runs = await claimer.claim({
              owner: `c${i}`,
              loops: [loop],
              limit: 4,
              leaseMs: 60_000,
            });
            if (round === 0 && ++firstClaims === claimers.length) allClaimedOnce.resolve();
            await allClaimedOnce.promise;
            if (runs.length === 0) return mine;
            mine.push(...runs.map((run) => run.runId));
          }
        }),
      );
      const all = claimed.flat();
      expect(all.sort()).toEqual([...runIds].sort());
      expect(new Set(all).size).toBe(60);
      expect(claimed.filter((runs) => runs.length > 0).length).toBeGreaterThan(1);
      expect((await store.entry(otherLoop))?.state).toBe('queued');
    });

    it('hands a leased run out again only after its lease expires, with a new token', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop, input: 'task' });
      const first = await claimOne(loop, 'a', 1000);
      expect(first).toMatchObject({ runId, input: 'task', seq: 0, claims: 1 });
      expect(await claimOne(loop, 'b', 1000)).toBeUndefined();
      await sleep(1100);
      const second = await claimOne(loop, 'b', 1000);
      expect(second?.lease.token).toBe((first?.lease.token ?? 0) + 1);
      expect(second).toMatchObject({ runId, claims: 2, lease: { owner: 'b' } });
      // The server's clock decides expiry: the lease ran for about 1000 ms.
      expect((second?.lease.expiresAt ?? 0) - (first?.lease.expiresAt ?? 0)).toBeGreaterThan(1000);
    });

    it('renews only the leases still held, and passes on an abort asked for by send()', async () => {
      const loop = loopName();
      const [kept, lost] = await store.enqueueAll([{ loop }, { loop }]);
      const runs = await store.claim({ owner: 'a', loops: [loop], limit: 2, leaseMs: 1000 });
      const leaseOf = (runId: unknown) => runs.find((run) => run.runId === runId)?.lease as Lease;
      await store.send(kept as string, { type: 'loop.abort', reason: 'user cancelled' });
      const renewal = await store.renew([leaseOf(kept)], 5000);
      expect(renewal.held.map((lease) => lease.runId)).toEqual([kept]);
      expect(renewal.held[0]?.expiresAt).toBeGreaterThan(leaseOf(kept).expiresAt + 3000);
      expect(renewal.aborts).toEqual([{ runId: kept, reason: 'user cancelled' }]);
      await sleep(1050); // the other lease, not renewed, runs out
      const later = await store.renew([renewal.held[0] as Lease, leaseOf(lost)], 5000);
      expect(later.held.map((lease) => lease.runId)).toEqual([kept]);
    });
  });

  describe('fenced saves', () => {
    it('refuses a save once another worker claimed the run after the lease expired', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop });
      const old = await claimOne(loop, 'old');
      const fenced = store.fenced(old?.lease as Lease);
      await fenced.save(record(runId, 1));
      // 'old' stalls past its lease: expire it on the server's clock instead of racing a short one
      await store.pool.query(
        `UPDATE "${schema}".loopchart_queue SET ready_at = clock_timestamp() WHERE run_id = $1`,
        [runId],
      );
      const expired = await fenced.save(record(runId, 2)).catch((e: unknown) => e);
      expect(isCheckpointError(expired) && expired.code).toBe('conflict');
      expect((expired as Error).message).toMatch(
        /worker 'old' lost its lease .*\(the lease expired\)/,
      );
      const fresh = await claimOne(loop, 'new');
      expect(fresh?.seq).toBe(1);
      const taken = await fenced.save(record(runId, 2)).catch((e: unknown) => e);
      expect((taken as Error).message).toMatch(
        /lost its lease on run '.*' \(worker 'new' claimed it after the lease expired\); checkpoint #2 was not saved/,
      );
      await store.fenced(fresh?.lease as Lease).save(record(runId, 2));
      expect(await store.load(runId)).toMatchObject({ seq: 2 });
    });

    it('still honours the seq compare-and-set while the lease holds', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop });
      const run = await claimOne(loop);
      const fenced = store.fenced(run?.lease as Lease);
      await fenced.save(record(runId, 1));
      const skipped = await fenced.save(record(runId, 3)).catch((e: unknown) => e);
      expect((skipped as Error).message).toMatch(/is at checkpoint #1, not #2/);
    });

    it('marks the entry done in the statement that saves the final checkpoint', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop, input: 'task' });
      const run = await claimOne(loop);
      const outcome = await runLoop({ attempt: () => 'draft', validate: () => valid }, 'task', {
        store: store.fenced(run?.lease as Lease),
        runId,
      });
      expect(outcome.status).toBe('proceed');
      expect(await store.entry(runId)).toMatchObject({ state: 'done', outcome: 'proceed' });
      expect(await store.counts()).toMatchObject({ done: expect.any(Number) });
      expect(await claimOne(loop)).toBeUndefined();
    });

    it('deletes the queue entry with the run, so no worker starts it again', async () => {
      const loop = loopName();
      const runId = await store.enqueue({ loop });
      expect(await store.delete(runId)).toBe(true);
      expect(await store.entry(runId)).toBeUndefined();
      expect(await claimOne(loop)).toBeUndefined();
      expect(await store.delete(runId)).toBe(false);
    });
  });
});
