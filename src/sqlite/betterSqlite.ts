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
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
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
 * Opens a SQLite file with better-sqlite3.
 * @example const db = openDatabase('.loopchart/runs.db', { readonly: false, fileMustExist: false });
 */
export function openDatabase(
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
): SqliteDatabase {
  return new Database(file, options);
}
