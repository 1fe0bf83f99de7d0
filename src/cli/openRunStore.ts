import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';

/** Where the commands that read stored runs look when `--db` is not given. */
export const DEFAULT_RUNS_DB = '.loopchart/runs.db';

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
    .option('--schema <name>', 'the Postgres schema of the tables (default public)');
}

/**
 * The store behind `--db`: a `postgres://` URL (with `schema`) or a SQLite file, opened read-only
 * unless `write`. Returns the reason instead when the file does not exist.
 * @example const store = await openRunStore('.loopchart/runs.db', { write: false });
 */
export async function openRunStore(
  db: string,
  { schema, write }: { schema?: string | undefined; write: boolean },
): Promise<CheckpointStore | string> {
  if (/^postgres(ql)?:\/\//.test(db)) {
    const { PostgresCheckpointStore } = await import('../postgres/index.js');
    return new PostgresCheckpointStore({
      connectionString: db,
      maxConnections: 4,
      ...(schema === undefined ? {} : { schema }),
    });
  }
  if (!existsSync(db)) return `no runs database at ${db} (pass --db <file|url>)`;
  const { SqliteCheckpointStore } = await import('../sqlite/index.js');
  return new SqliteCheckpointStore(db, { readonly: !write });
}

/**
 * `--db` as it may be shown (in output, on a served page): a URL's password masked.
 * @example runStoreName('postgres://app:secret@db/app'); // 'postgres://app:***@db/app'
 */
export function runStoreName(db: string): string {
  return db.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, '$1:***@');
}
