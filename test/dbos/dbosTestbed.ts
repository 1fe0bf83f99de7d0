/**
 * The setup every DBOS test file shares: the library compiled for child processes, a journal
 * folder, a database of its own (DBOS tables migrated), and the processes it started; all of it
 * removed after the file. Call it at the top level of a test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';
import { createDatabase, dropDatabase } from './dbosDatabase.js';
import { type DbosProcess, startDbosProcess } from './dbosHarness.js';

export interface DbosTestbed {
  /** The journal folder (valid inside tests). */
  readonly base: string;
  /** The system database URL (valid inside tests). */
  readonly url: string;
  readonly processes: DbosProcess[];
  start(executor: string, env?: Record<string, string>): Promise<DbosProcess>;
}

export function dbosTestbed(label: string, enabled: boolean): DbosTestbed {
  let lib = '';
  let built = '';
  let base = '';
  let db: { name: string; url: string } | undefined;
  const processes: DbosProcess[] = [];
  beforeAll(async () => {
    if (!enabled) return;
    ({ base: built, lib } = compileLibrary(`dbos-${label}`, [
      'entries/index.ts',
      'entries/dbos.ts',
    ]));
    base = mkdtempSync(join(tmpdir(), 'loopchart-dbos-'));
    db = await createDatabase(label);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    if (db) await dropDatabase(db.name);
    if (built) removeLibrary(built);
    if (base) rmSync(base, { recursive: true, force: true });
  }, 60_000);
  return {
    get base() {
      return base;
    },
    get url() {
      return db?.url ?? '';
    },
    processes,
    async start(executor, env = {}) {
      const started = await startDbosProcess({ lib, systemDb: db?.url ?? '', base, executor }, env);
      processes.push(started);
      return started;
    },
  };
}
