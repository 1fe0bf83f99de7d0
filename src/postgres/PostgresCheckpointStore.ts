import pg from 'pg';
import type { LoopEvent } from '../machines/loopEvents.js';
import { checkpointConflict } from '../persistence/CheckpointError.js';
import type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunSummary,
  ScanOptions,
} from '../persistence/CheckpointStore.js';
import { type RunRow, toRunSummary } from '../persistence/runRow.js';
import type {
  ClaimedRun,
  Lease,
  NewRun,
  QueueEntry,
  QueueState,
  Release,
  Renewal,
  RunQueue,
} from '../worker/RunQueue.js';
import { checkpointSql } from './checkpointSql.js';
import { leaseLost } from './leaseLost.js';
import {
  alreadyQueued,
  claimedRun,
  type QueueRow,
  queuedRows,
  sendEvent,
  toEntry,
} from './postgresQueue.js';
import {
  missingTables,
  type PostgresStoreOptions,
  schemaSql,
  type Tables,
  tablesOf,
} from './postgresTables.js';
import { queueSql } from './queueSql.js';
import { statementName } from './statementName.js';

/**
 * Checkpoints and a run queue on a PostgreSQL server, for many workers (`createWorker`) sharing
 * one database. Call `setup()` once to create the schema (it is idempotent). Every save is one
 * atomic statement honouring the `seq` compare-and-set; a worker's saves are also fenced by its
 * lease. Needs the `pg` package.
 * @example const store = new PostgresCheckpointStore({ connectionString: process.env.DATABASE_URL });
 *          await store.setup();
 *          await store.enqueue({ loop: 'invoice', input: { id: 42 } });
 */
export class PostgresCheckpointStore implements RunQueue {
  /** The pool the store queries through (yours, if you passed one in). */
  readonly pool: pg.Pool;
  /** The quoted table names. */
  readonly tables: Tables;
  readonly #owned: boolean;
  readonly #sql: ReturnType<typeof checkpointSql>;
  readonly #queue: ReturnType<typeof queueSql>;
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
    this.#queue = queueSql(this.tables);
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
    return this.#save(record, undefined);
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

  /** Deletes a run's checkpoint and its queue entry; true if either was there. */
  async delete(runId: string): Promise<boolean> {
    const { rows } = await this.#query<{ checkpoints: number; queued: number }>(this.#sql.delete, [
      runId,
    ]);
    return (rows[0]?.checkpoints ?? 0) + (rows[0]?.queued ?? 0) > 0;
  }

  /** Ends the pool if the store created it. */
  async close(): Promise<void> {
    if (!this.#owned || this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }

  /**
   * Queues a run for the workers and resolves to its run id. A run id with a checkpoint but no
   * queue entry (started by `runLoop`) is adopted: a worker resumes it. Rejects with
   * `CheckpointError` `conflict` if the run is queued already.
   * @example const runId = await store.enqueue({ loop: 'invoice', input: { id: 42 } });
   */
  async enqueue(run: NewRun): Promise<string> {
    const [runId] = await this.enqueueAll([run]);
    return runId as string;
  }

  /** Queues many runs in one statement: all of them, or none. */
  async enqueueAll(runs: readonly NewRun[]): Promise<string[]> {
    const { runIds, loops, inputs } = queuedRows(runs);
    try {
      await this.#query(this.#queue.enqueue, [runIds, loops, inputs]);
    } catch (error) {
      throw alreadyQueued(error, runIds);
    }
    return runIds;
  }

  /**
   * Posts an answer to a paused run (a worker then resumes it) or `loop.abort` to any unfinished
   * one. Rejects with `CheckpointError` `not_found` or `not_waiting` saying why.
   * @example await store.send('invoice-42', { type: 'review.continue' });
   */
  async send(runId: string, event: LoopEvent): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await sendEvent(client, this.#queue, runId, event);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw missingTables(this.tables)(error);
    } finally {
      client.release();
    }
  }

  async claim(request: {
    owner: string;
    loops: readonly string[];
    limit: number;
    leaseMs: number;
  }): Promise<ClaimedRun[]> {
    const { owner, loops, limit, leaseMs } = request;
    const { rows } = await this.#query<QueueRow>(this.#queue.claim, [owner, loops, limit, leaseMs]);
    if (rows.length === 0) return [];
    const stored = await this.#query<{ run_id: string; seq: number }>(this.#queue.seqs, [
      rows.map((row) => row.run_id),
    ]);
    const seqs = new Map(stored.rows.map((row) => [row.run_id, row.seq]));
    const runs: ClaimedRun[] = [];
    for (const row of rows) {
      const run = claimedRun(row, owner, seqs.get(row.run_id) ?? 0);
      if (typeof run !== 'string') runs.push(run);
      else await this.release(leaseOf(row, owner), { state: 'failed', error: run });
    }
    return runs;
  }

  async renew(leases: readonly Lease[], leaseMs: number): Promise<Renewal> {
    if (leases.length === 0) return { held: [], aborts: [] };
    const { rows } = await this.#query<QueueRow>(this.#queue.renew, [
      leases.map((lease) => lease.runId),
      leases.map((lease) => lease.token),
      leaseMs,
    ]);
    const held = rows.map((row) => leaseOf(row, leases[0]?.owner ?? ''));
    const aborts = rows.flatMap((row) =>
      row.abort_reason === null ? [] : [{ runId: row.run_id, reason: row.abort_reason }],
    );
    return { held, aborts };
  }

  fenced(lease: Lease): CheckpointStore {
    return {
      save: (record) => this.#save(record, lease),
      load: (runId) => this.load(runId),
      list: (options) => this.list(options),
      delete: (runId) => this.delete(runId),
    };
  }

  async release(lease: Lease, release: Release): Promise<void> {
    await this.#query(this.#queue.release, [
      lease.runId,
      lease.token,
      release.state,
      release.state === 'queued' ? Math.max(0, Math.round(release.delayMs)) : 0,
      release.state === 'done' ? release.outcome : null,
      release.state === 'failed' ? release.error : null,
    ]);
  }

  /** A run's queue entry, or undefined if it was never queued. */
  async entry(runId: string): Promise<QueueEntry | undefined> {
    const row = (await this.#query<QueueRow>(this.#queue.entry, [runId])).rows[0];
    return row && toEntry(row);
  }

  /** How many queue entries are in each state. */
  async counts(): Promise<Record<QueueState, number>> {
    const counts = { queued: 0, leased: 0, paused: 0, done: 0, failed: 0 };
    const { rows } = await this.#query<{ state: QueueState; n: number }>(this.#queue.counts, []);
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  async #save(record: CheckpointRecord, lease: Lease | undefined): Promise<void> {
    const { runId, seq, status, state, machineId, updatedAt, data } = record;
    const values: unknown[] = [runId, seq, status, state, machineId, updatedAt, data];
    const sql = this.#sql;
    let leased = true;
    if (lease === undefined) {
      const result = await this.#query(seq === 1 ? sql.insert : sql.update, values);
      if (result.rowCount === 1) return;
    } else {
      const statement = seq === 1 ? sql.fencedInsert : sql.fencedUpdate;
      const result = await this.#query<{ saved: boolean; leased: boolean }>(statement, [
        ...values,
        lease.token,
      ]);
      if (result.rows[0]?.saved) return;
      leased = result.rows[0]?.leased ?? false;
    }
    const found = (await this.#query(sql.diagnose, [runId])).rows[0] ?? {};
    if (lease && !leased) throw leaseLost(record, lease, found);
    throw checkpointConflict(record, found.seq ?? 0);
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

function leaseOf(row: QueueRow, owner: string): Lease {
  return { runId: row.run_id, owner, token: row.lease_token, expiresAt: row.expires_at };
}
