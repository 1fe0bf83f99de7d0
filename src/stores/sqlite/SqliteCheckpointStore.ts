import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import { checkpointConflict } from '../kit/CheckpointError.js';
import type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunSummary,
  ScanOptions,
} from '../kit/CheckpointStore.js';
import { type RunRow, toRunSummary } from '../kit/runRow.js';
import { openDatabase, type SqliteDatabase } from './betterSqlite.js';

/** Options of `SqliteCheckpointStore`. */
export interface SqliteStoreOptions {
  /** Open an existing file read-only (to list or show runs); every save then fails. */
  readonly?: boolean;
  /**
   * `NORMAL` (default; in WAL mode a commit survives a crash of the process, and the last commits
   * may be lost on power loss) or `FULL` (also survives power loss, slower per save).
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * How long a save keeps trying while another connection holds the write lock, in ms (default
   * 5000). It retries asynchronously with a short backoff, so the event loop runs meanwhile.
   */
  busyTimeoutMs?: number;
}

const TABLE = 'loopchart_checkpoints';
const COLUMNS = 'run_id, seq, status, state, machine_id, updated_at';

/**
 * Checkpoints in an embedded SQLite file (better-sqlite3, WAL mode): one row per run, each save
 * one prepared statement in its own transaction. Several processes may share the file.
 * @example const store = new SqliteCheckpointStore('.loopchart/runs.db');
 *          const result = await runLoop(config, 'draft', { store, runId: 'invoice-42' });
 *          store.close();
 */
export class SqliteCheckpointStore implements CheckpointStore {
  /** The open connection (yours, if you passed one in). */
  readonly db: SqliteDatabase;
  readonly #owned: boolean;
  readonly #statements: ReturnType<typeof prepare> | undefined;
  readonly #busyMs: number;

  constructor(file: string | SqliteDatabase, options: SqliteStoreOptions = {}) {
    const readonly = options.readonly ?? false;
    this.#owned = typeof file === 'string';
    if (typeof file === 'string' && !readonly && file !== ':memory:' && !file.startsWith('file:')) {
      mkdirSync(dirname(file), { recursive: true });
    }
    this.db =
      typeof file === 'string' ? openDatabase(file, { readonly, fileMustExist: readonly }) : file;
    this.#busyMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
    // opening may wait for the lock (once); saves wait without blocking the event loop (below)
    this.db.pragma(`busy_timeout = ${this.#busyMs}`);
    if (!this.db.readonly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
        run_id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        data TEXT NOT NULL
      )`); // no secondary index: every save would rewrite it, and list() is rare
    }
    const exists = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(TABLE);
    this.#statements = exists ? prepare(this.db) : undefined;
    this.db.pragma('busy_timeout = 0');
  }

  async save(record: CheckpointRecord): Promise<void> {
    const statements = this.#statements;
    if (!statements) throw new Error(`${this.db.name} has no ${TABLE} table and is read-only`);
    const { runId, seq, status, state, machineId, updatedAt, data } = record;
    const values = { runId, seq, status, state, machineId, updatedAt, data };
    const { changes } = await this.#whileBusy(() =>
      seq === 1 ? statements.insert.run(values) : statements.update.run(values),
    );
    if (changes === 1) return;
    const stored = statements.seqOf.get(runId) as { seq: number } | undefined;
    throw checkpointConflict(record, stored?.seq ?? 0);
  }

  async load(runId: string): Promise<CheckpointRecord | undefined> {
    const row = this.#statements?.load.get(runId) as RunRow | undefined;
    return row && { ...toRunSummary(row), data: String(row.data) };
  }

  async list({ status, limit }: ListOptions = {}): Promise<RunSummary[]> {
    const statements = this.#statements;
    if (!statements) return [];
    const max = limit === undefined ? -1 : Math.max(0, Math.trunc(limit));
    const rows = (
      status === undefined ? statements.list.all(max) : statements.listStatus.all(status, max)
    ) as RunRow[];
    return rows.map(toRunSummary);
  }

  async delete(runId: string): Promise<boolean> {
    const statements = this.#statements;
    if (!statements) return false;
    return (await this.#whileBusy(() => statements.delete.run(runId))).changes > 0;
  }

  async scan({ machineId, since, until, after, limit }: ScanOptions): Promise<CheckpointRecord[]> {
    const rows = this.#statements?.scan.all({
      after: after ?? null,
      machineId: machineId ?? null,
      since: since ?? null,
      until: until ?? null,
      limit: Math.max(0, Math.trunc(limit)),
    }) as RunRow[] | undefined;
    return (rows ?? []).map((row) => ({ ...toRunSummary(row), data: String(row.data) }));
  }

  /**
   * Runs a write; while another connection holds the lock (`SQLITE_BUSY`), tries again after
   * 1, 2, 4 … 50 ms until `busyTimeoutMs` has passed, then fails with the busy error.
   */
  async #whileBusy<T>(write: () => T): Promise<T> {
    const started = monotonicClock.now();
    for (let wait = 1; ; wait = Math.min(2 * wait, 50)) {
      try {
        return write();
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY');
        if (!busy || monotonicClock.now() - started + wait > this.#busyMs) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Closes the connection if the store opened it. */
  close(): void {
    if (this.#owned && this.db.open) this.db.close();
  }
}

function prepare(db: SqliteDatabase) {
  const order = 'ORDER BY updated_at DESC, run_id LIMIT ?';
  return {
    insert: db.prepare(
      `INSERT INTO ${TABLE} (${COLUMNS}, data)
       VALUES (@runId, @seq, @status, @state, @machineId, @updatedAt, @data)
       ON CONFLICT (run_id) DO NOTHING`,
    ),
    update: db.prepare(
      `UPDATE ${TABLE} SET seq = @seq, status = @status, state = @state, machine_id = @machineId,
       updated_at = @updatedAt, data = @data WHERE run_id = @runId AND seq = @seq - 1`,
    ),
    seqOf: db.prepare(`SELECT seq FROM ${TABLE} WHERE run_id = ?`),
    load: db.prepare(`SELECT ${COLUMNS}, data FROM ${TABLE} WHERE run_id = ?`),
    list: db.prepare(`SELECT ${COLUMNS} FROM ${TABLE} ${order}`),
    listStatus: db.prepare(`SELECT ${COLUMNS} FROM ${TABLE} WHERE status = ? ${order}`),
    delete: db.prepare(`DELETE FROM ${TABLE} WHERE run_id = ?`),
    // Walks the primary key, so each page is an index range and no sort.
    scan: db.prepare(
      `SELECT ${COLUMNS}, data FROM ${TABLE}
       WHERE (@after IS NULL OR run_id > @after) AND (@machineId IS NULL OR machine_id = @machineId)
         AND (@since IS NULL OR updated_at >= @since) AND (@until IS NULL OR updated_at < @until)
       ORDER BY run_id LIMIT @limit`,
    ),
  };
}
