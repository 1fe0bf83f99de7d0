/**
 * What the store-backed child processes of the claim and operate tests share: the compiled library
 * (LIB), the store their env names (STORE sqlite | postgres, DB the file or the schema, PG_URL),
 * and a journal in WORK appended synchronously, so it survives a SIGKILL.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, STORE, DB, PG_URL, WORK, MODE } = process.env;

/** A module of the compiled library, e.g. `entries/index.js`. */
export const load = (path) => import(pathToFileURL(join(LIB, path)).href);

/** Appends one entry, stamped with this process and MODE, to WORK/journal.jsonl. */
export const journal = (entry) =>
  appendFileSync(
    join(WORK, 'journal.jsonl'),
    `${JSON.stringify({ pid: process.pid, mode: MODE, at: Date.now(), ...entry })}\n`,
  );

/** The checkpoint store the env names. */
export async function envStore() {
  if (STORE === 'sqlite') {
    const { SqliteCheckpointStore } = await load('entries/sqlite.js');
    return new SqliteCheckpointStore(DB);
  }
  const { PostgresCheckpointStore } = await load('entries/postgres.js');
  return new PostgresCheckpointStore({ connectionString: PG_URL, schema: DB });
}
