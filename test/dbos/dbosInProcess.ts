/** DBOS launched in this test file's own process, on a database of its own (dropped after). */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, dropDatabase } from './dbosDatabase.js';

/**
 * Launches DBOS before the file's tests (register its workflows at the top level first) and
 * shuts it down after, when `enabled` (a Postgres server answers). Call it at the top level.
 */
export function dbosInProcess(label: string, enabled: boolean): void {
  let database: { name: string; url: string } | undefined;
  beforeAll(async () => {
    if (!enabled) return;
    database = await createDatabase(label);
    DBOS.setConfig({
      name: `loopchart-${label}`,
      systemDatabaseUrl: database.url,
      logLevel: 'error',
    });
    await DBOS.launch();
  }, 60_000);
  afterAll(async () => {
    if (!enabled) return;
    await DBOS.shutdown();
    if (database) await dropDatabase(database.name);
  }, 60_000);
}
