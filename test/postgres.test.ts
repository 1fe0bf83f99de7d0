/**
 * What the Postgres store adds to the shared contract (test/postgres-store.test.ts runs that):
 * its schema setup and options, on the real server. (Runs spread over processes on DBOS now:
 * test/dbos-*.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import type { CheckpointRecord } from 'loopchart';
import { PostgresCheckpointStore, type PostgresStoreOptions } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        expect(rows.map((row) => row.table_name)).toEqual(['loopchart_checkpoints']);
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
});
