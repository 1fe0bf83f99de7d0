// Loops checkpointed on PostgreSQL in a schema of their own, with the health report over them.
import { runLoop } from 'loopchart';
import { loopHealth } from 'loopchart/health';
import { PostgresCheckpointStore, type PostgresStoreOptions } from 'loopchart/postgres';
import pg from 'pg';

const options: PostgresStoreOptions = {
  connectionString: 'postgres://app@127.0.0.1/app',
  schema: 'billing',
  tablePrefix: 'lc_',
  maxConnections: 4,
  synchronousCommit: 'off',
};

export async function billing(): Promise<number> {
  const store = new PostgresCheckpointStore(options);
  await store.setup();
  const outcome = await runLoop(
    { attempt: ({ input }) => input.toUpperCase(), validate: () => ({ valid: true }) },
    'invoice 7',
    { store, runId: 'invoice-7' },
  );
  const report = await loopHealth(store, { loop: 'loop', since: Date.now() - 86_400_000 });
  await store.close();
  return outcome.status === 'proceed' ? report.loops.length : -1;
}

export async function ownPool(): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: 'postgres://app@127.0.0.1/app' });
  const store = new PostgresCheckpointStore({ pool, schema: 'billing' });
  const runs = await store.list({ status: 'paused', limit: 10 });
  await pool.end();
  return runs.map((run) => run.runId);
}

// @ts-expect-error TS2322 synchronousCommit is 'on' or 'off'
export const wrong: PostgresStoreOptions = { synchronousCommit: true };
