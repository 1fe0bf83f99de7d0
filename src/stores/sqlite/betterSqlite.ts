import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A prepared statement of the connection, as the store uses it. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/**
 * The part of a better-sqlite3 `Database` the store uses, so the store's types need neither
 * better-sqlite3 nor `@types/better-sqlite3`; a `new Database(file)` of better-sqlite3 fits it.
 */
export interface SqliteDatabase {
  readonly name: string;
  readonly open: boolean;
  readonly readonly: boolean;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  prepare(source: string): SqliteStatement;
  close(): unknown;
}

type DatabaseConstructor = new (
  file: string | Uint8Array,
  options: { readonly: boolean; fileMustExist?: boolean },
) => SqliteDatabase;

/** better-sqlite3 is an optional peer: without it, importing `loopchart/sqlite` says what to install. */
function loadBetterSqlite(): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      'loopchart/sqlite needs the optional peer dependency better-sqlite3: npm install better-sqlite3@12',
    );
  }
}

const Database = loadBetterSqlite();

/**
 * Opens a SQLite file with better-sqlite3. Read-only, a WAL-mode file whose `-shm` is gone and
 * cannot be made again here (a folder this process may not write) is read from a copy in memory
 * taken now, when its `-wal` holds nothing the file lacks; otherwise that says what to do.
 * @example const db = openDatabase('.loopchart/runs.db', { readonly: false, fileMustExist: false });
 */
export function openDatabase(
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
): SqliteDatabase {
  if (!options.readonly) return new Database(file, options);
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(file, options);
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get(); // a WAL reader opens the -shm here
    return db;
  } catch (error) {
    db?.close();
    if (!cannotMakeShm(error) || !existsSync(file)) throw error;
    return snapshotOf(file, error);
  }
}

function cannotMakeShm(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_CANTOPEN' || (typeof code === 'string' && code.startsWith('SQLITE_READONLY'))
  );
}

/** The file as it is now, in memory and read-only; its header says rollback mode, not WAL. */
function snapshotOf(file: string, cause: unknown): SqliteDatabase {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new Error(
      `cannot open ${file} read-only: its -shm file is gone and this process may not create it, and its -wal holds commits the file lacks (a writer still has it open, or stopped without closing it). Open it once where the folder is writable, or read it as the user that writes it`,
      { cause },
    );
  }
  const bytes = readFileSync(file);
  if (bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
  return new Database(bytes, { readonly: true });
}
