/**
 * The Postgres server the tests use: LOOPCHART_PG_URL, by default the local one CI starts. When it
 * cannot be reached, outside CI the Postgres tests say so in one line and are skipped; in CI
 * (`CI` set) they fail with that line, so they never skip silently there.
 */
import { randomBytes } from 'node:crypto';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import pg from 'pg';

export const PG_URL = process.env.LOOPCHART_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when the server answers; false (with one line on stderr) outside CI; throws in CI. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const line = `Postgres tests: no server at ${withoutPassword(PG_URL)} (${why}); set LOOPCHART_PG_URL or start PostgreSQL`;
    if (process.env.CI) throw new Error(`${line}. CI is set, so this fails instead of skipping.`);
    console.warn(`${line}. Skipping them (not in CI).`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema name of its own for one test file, so runs in parallel never meet. */
export function schemaName(label: string): string {
  return `loopchart_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
}

/** Creates loopchart's tables in `schema` and lets `seed` save runs to them; closes the store after. */
export async function seedSchema(
  schema: string,
  seed: (store: PostgresCheckpointStore) => Promise<unknown>,
): Promise<void> {
  const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
  try {
    await store.setup();
    await seed(store);
  } finally {
    await store.close();
  }
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
