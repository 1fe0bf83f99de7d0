import { existsSync } from 'node:fs';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';

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
