import { accessSync, constants, statSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { CliFault, inWords, systemCode } from './cliFault.js';

/** Where the commands that read stored runs look when `--db` is not given. */
export const DEFAULT_RUNS_DB = '.loopchart/runs.db';

/** How long a command reading runs waits for another process's lock on a SQLite file, in ms. */
const READ_BUSY_TIMEOUT_MS = 1000;

/** The flags `runStoreOptions` adds. */
export interface RunStoreFlags {
  db: string;
  schema?: string;
}

/**
 * Adds `--db <file|url>` and `--schema <name>`, the flags every command that reads stored runs
 * opens through `openRunStore`. `--db` defaults to `.loopchart/runs.db` unless `optional`.
 * @example runStoreOptions(program.command('health'));
 */
export function runStoreOptions(
  command: Command,
  {
    optional = false,
    description = 'a SQLite file, or a postgres:// URL',
  }: { optional?: boolean; description?: string } = {},
): Command {
  const db = new Option('--db <file|url>', description);
  return command
    .addOption(optional ? db : db.default(DEFAULT_RUNS_DB))
    .option(
      '--schema <name>',
      'the Postgres schema of the tables (default public; postgres:// only)',
    );
}

const isPostgres = (db: string) => /^postgres(ql)?:\/\//.test(db);

/**
 * The store behind `--db`, checked before a command uses it: a `postgres://` URL (with `schema`),
 * its server reached and its tables there; or a SQLite file that exists, can be read (and written,
 * with `write`) and is a database. Throws `CliFault` naming the fault in the CLI's words.
 * @example const store = await openRunStore('.loopchart/runs.db', { write: false });
 */
export async function openRunStore(
  db: string,
  { schema, write }: { schema?: string | undefined; write: boolean },
): Promise<CheckpointStore> {
  if (isPostgres(db)) {
    const { PostgresCheckpointStore } = await import(
      '../../stores/postgres/PostgresCheckpointStore.js'
    );
    const store = new PostgresCheckpointStore({
      connectionString: db,
      maxConnections: 4,
      ...(schema === undefined ? {} : { schema }),
    });
    try {
      await store.list({ limit: 1 });
    } catch (error) {
      await store.close();
      throw storeFault(error, db) ?? error;
    }
    return store;
  }
  if (schema !== undefined) {
    throw new CliFault('usage', `--schema applies to a postgres:// --db only, not to ${db}`);
  }
  checkRunsFile(db, { write, mayBeMissing: false });
  const { SqliteCheckpointStore } = await import('../../stores/sqlite/SqliteCheckpointStore.js');
  try {
    return new SqliteCheckpointStore(db, {
      readonly: !write,
      ...(write ? {} : { busyTimeoutMs: READ_BUSY_TIMEOUT_MS }),
    });
  } catch (error) {
    throw storeFault(error, db) ?? error;
  }
}

/**
 * A SQLite runs file exists (unless `mayBeMissing`: the demo creates it), is a file and may be
 * read (and written): else the fault.
 */
export function checkRunsFile(
  db: string,
  { write, mayBeMissing }: { write: boolean; mayBeMissing: boolean },
): void {
  let folder = false;
  try {
    folder = statSync(db).isDirectory();
  } catch (error) {
    const code = systemCode(error);
    if (code === 'ENOENT' && mayBeMissing) return;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new CliFault('missing', `no runs database at ${db} (pass --db <file|url>)`);
    }
    throw new CliFault('unreadable', `cannot read ${db} (${inWords(code, String(error))})`);
  }
  if (folder) throw new CliFault('corrupt', `${db} is not a loopchart runs database (a folder)`);
  try {
    accessSync(db, write ? constants.R_OK | constants.W_OK : constants.R_OK);
  } catch (error) {
    const what = write ? 'read and write' : 'read';
    throw new CliFault(
      'unreadable',
      `cannot ${what} ${db} (${inWords(systemCode(error), 'no access')})`,
    );
  }
}

/**
 * The fault behind an error of the store at `db` (SQLite's codes, Postgres's and the network's),
 * or undefined when it is none of them.
 */
export function storeFault(error: unknown, db: string): CliFault | undefined {
  const code = systemCode(error) ?? systemCode((error as { cause?: unknown } | null)?.cause);
  const name = runStoreName(db);
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  switch (code) {
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new CliFault('corrupt', `${name} is not a loopchart runs database (${reason})`);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new CliFault(
        'locked',
        `${name} is locked by another process (${reason}); try again when it is done`,
      );
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PERM':
    case 'SQLITE_READONLY':
      return new CliFault('unreadable', `cannot open ${name} (${reason})`);
    case '42P01':
    case '3F000':
    case '3D000':
      return new CliFault('missing', `no runs database at ${name} (${reason})`);
    case '28P01':
    case '28000':
      return new CliFault('unreachable', `PostgreSQL at ${name} refused the login (${reason})`);
  }
  if (isPostgres(db) && code && /^E[A-Z_]+$/.test(code)) {
    return new CliFault(
      'unreachable',
      `cannot reach PostgreSQL at ${name} (${inWords(code, code)})`,
    );
  }
  return undefined;
}

/**
 * Opens the store behind the flags, runs `use` and closes it; a store error on the way becomes
 * its `CliFault`.
 * @example const rows = await usingRunStore(flags, (store) => store.list());
 */
export async function usingRunStore<T>(
  { db, schema }: RunStoreFlags,
  use: (store: CheckpointStore) => Promise<T>,
): Promise<T> {
  const store = await openRunStore(db, { schema, write: false });
  try {
    return await use(store);
  } catch (error) {
    throw storeFault(error, db) ?? error;
  } finally {
    await store.close?.();
  }
}

/**
 * `--db` as it may be shown (in output, on a served page): a URL's password masked.
 * @example runStoreName('postgres://app:secret@db/app'); // 'postgres://app:***@db/app'
 */
export function runStoreName(db: string): string {
  return db.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, '$1:***@');
}
