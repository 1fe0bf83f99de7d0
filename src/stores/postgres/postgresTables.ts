import type { Pool } from 'pg';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';

/** Options of `PostgresCheckpointStore`. */
export interface PostgresStoreOptions {
  /** A `pg` Pool you own: the store uses it and never ends it. */
  pool?: Pool;
  /** Without `pool`: the server to connect to (without either, `pg` reads the PG* variables). */
  connectionString?: string;
  /** Connections the store's own pool opens at most (default 10). */
  maxConnections?: number;
  /**
   * `on` (default): a save returns once the server flushed it to disk. `off` (the store's own
   * pool only): it returns before, like SQLite's `synchronous=NORMAL` — several times the saves
   * per second; a crash of the client loses nothing, a crash of the server may roll the last
   * saves of each run back (consistently), so a step after them may run again.
   */
  synchronousCommit?: 'on' | 'off';
  /** The schema holding the tables (default `public`); `setup()` creates it. */
  schema?: string;
  /** Starts every table name (default `loopchart_`): `loopchart_checkpoints`. */
  tablePrefix?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The quoted names of a store's tables and index. */
export interface Tables {
  schema: string;
  checkpoints: string;
  /** Names the tables in errors and the setup lock. */
  label: string;
}

/** Checks the options (throws `LoopConfigError` naming the field) and names the tables. */
export function tablesOf(options: PostgresStoreOptions): Tables {
  const schema = options.schema ?? 'public';
  const prefix = options.tablePrefix ?? 'loopchart_';
  const problems: string[] = [];
  if (!IDENTIFIER.test(schema) || schema.length > 63) {
    problems.push('  - schema: must be a lower-case identifier (a-z, 0-9, _), 1 to 63 characters');
  }
  if (!(prefix === '' || IDENTIFIER.test(prefix)) || prefix.length > 40) {
    problems.push('  - tablePrefix: must be lower-case (a-z, 0-9, _), at most 40 characters');
  }
  const max = options.maxConnections;
  if (max !== undefined && !(Number.isInteger(max) && max >= 1 && max <= 1000)) {
    problems.push('  - maxConnections: must be an integer from 1 to 1000');
  }
  const sync = options.synchronousCommit;
  if (sync !== undefined && sync !== 'on' && sync !== 'off') {
    problems.push("  - synchronousCommit: must be 'on' or 'off'");
  } else if (options.pool !== undefined && sync !== undefined) {
    problems.push('  - synchronousCommit: set it on the pool you pass (it applies to owned pools)');
  }
  if (options.pool !== undefined && options.connectionString !== undefined) {
    problems.push('  - pool: pass either pool or connectionString, not both');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid Postgres store options\n${problems.join('\n')}`);
  }
  const name = (table: string) => `"${schema}"."${prefix}${table}"`;
  return {
    schema: `"${schema}"`,
    checkpoints: name('checkpoints'),
    label: `${schema}.${prefix}*`,
  };
}

/** The schema, idempotently. */
export function schemaSql(t: Tables): string {
  return `
    CREATE SCHEMA IF NOT EXISTS ${t.schema};
    CREATE TABLE IF NOT EXISTS ${t.checkpoints} (
      run_id text PRIMARY KEY,
      seq integer NOT NULL CHECK (seq >= 1),
      status text NOT NULL,
      state text NOT NULL,
      machine_id text NOT NULL,
      updated_at bigint NOT NULL,
      data text NOT NULL
    );`;
}

/** Turns "relation does not exist" into a message that says to call `setup()`. */
export function missingTables(tables: Tables) {
  return (error: unknown): never => {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '42P01' || code === '3F000') {
      throw new Error(
        `loopchart: the tables ${tables.label} do not exist; call \`await store.setup()\` once (it is idempotent)`,
        { cause: error },
      );
    }
    throw error;
  };
}
