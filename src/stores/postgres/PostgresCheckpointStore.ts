import pg from 'pg';
import { checkpointConflict } from '../kit/CheckpointError.js';
import type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunSummary,
  ScanOptions,
} from '../kit/CheckpointStore.js';
import { type RunRow, toRunSummary } from '../kit/runRow.js';
import { checkpointSql } from './checkpointSql.js';
import {
  missingTables,
  type PostgresStoreOptions,
  schemaSql,
  type Tables,
  tablesOf,
} from './postgresTables.js';
import { statementName } from './statementName.js';

/**
 * Checkpoints on a PostgreSQL server, for `runLoop` / `resumeLoop` from many processes sharing
 * one database. Call `setup()` once to create the schema (it is idempotent). Every save is one
 * atomic statement honouring the `seq` compare-and-set. Needs the `pg` package. (To spread runs
 * over processes, run them on DBOS: `loopchart/dbos`.)
 * @example const store = new PostgresCheckpointStore({ connectionString: process.env.DATABASE_URL });
 *          await store.setup();
 *          const result = await runLoop(config, input, { store });
 */
export class PostgresCheckpointStore implements CheckpointStore {
  /** The pool the store queries through (yours, if you passed one in). */
  readonly pool: pg.Pool;
  /** The quoted table names. */
  readonly tables: Tables;
  readonly #owned: boolean;
  readonly #sql: ReturnType<typeof checkpointSql>;
  #closed = false;

  constructor(options: PostgresStoreOptions = {}) {
    this.tables = tablesOf(options);
    this.#owned = options.pool === undefined;
    this.pool =
      options.pool ??
      new pg.Pool({
        ...(options.connectionString === undefined
          ? {}
          : { connectionString: options.connectionString }),
        max: options.maxConnections ?? 10,
        ...(options.synchronousCommit === 'off' ? { options: '-c synchronous_commit=off' } : {}),
      });
    // An idle connection the server dropped must not crash the process; the next query reconnects.
    if (this.#owned) this.pool.on('error', () => {});
    this.#sql = checkpointSql(this.tables);
  }

  /**
   * Creates the schema, tables and index if missing; safe to run from many processes at once.
   * @example await new PostgresCheckpointStore({ connectionString, schema: 'billing' }).setup();
   */
  async setup(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.tables.label]);
      await client.query(schemaSql(this.tables));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  save(record: CheckpointRecord): Promise<void> {
    return this.#save(record);
  }

  async load(runId: string): Promise<CheckpointRecord | undefined> {
    const row = (await this.#query<RunRow>(this.#sql.load, [runId])).rows[0];
    return row && { ...toRunSummary(row), data: String(row.data) };
  }

  async list({ status, limit }: ListOptions = {}): Promise<RunSummary[]> {
    const max = limit === undefined ? null : Math.max(0, Math.trunc(limit));
    const { rows } =
      status === undefined
        ? await this.#query<RunRow>(this.#sql.list, [max])
        : await this.#query<RunRow>(this.#sql.listStatus, [max, status]);
    return rows.map(toRunSummary);
  }

  async scan({ machineId, since, until, after, limit }: ScanOptions): Promise<CheckpointRecord[]> {
    const { rows } = await this.#query<RunRow>(this.#sql.scan, [
      after ?? null,
      machineId ?? null,
      since ?? null,
      until ?? null,
      Math.max(0, Math.trunc(limit)),
    ]);
    return rows.map((row) => ({ ...toRunSummary(row), data: String(row.data) }));
  }

  /** Deletes a run's checkpoint; true if it was there. */
  async delete(runId: string): Promise<boolean> {
    const result = await this.#query(this.#sql.delete, [runId]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Ends the pool if the store created it. */
  async close(): Promise<void> {
    if (!this.#owned || this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }

  async #save(record: CheckpointRecord): Promise<void> {
    const { runId, seq, status, state, machineId, updatedAt, data } = record;
    const values: unknown[] = [runId, seq, status, state, machineId, updatedAt, data];
    const result = await this.#query(seq === 1 ? this.#sql.insert : this.#sql.update, values);
    if (result.rowCount === 1) return;
    const found = (await this.#query<{ seq: number }>(this.#sql.diagnose, [runId])).rows[0];
    throw checkpointConflict(record, found?.seq ?? 0);
  }

  async #query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[]) {
    try {
      // Named, so each connection parses and plans a statement once.
      return await this.pool.query<R>({ name: statementName(sql), text: sql, values });
    } catch (error) {
      throw missingTables(this.tables)(error);
    }
  }
}
