/** Where a run is: working (a step or a retry wait), paused for a person, or finished. */
export type RunStatus = 'running' | 'paused' | 'done';

/** The run statuses, for validation and CLI filters. */
export const RUN_STATUSES = ['running', 'paused', 'done'] as const satisfies readonly RunStatus[];

/**
 * One stored checkpoint: a few columns a store can index and list, and `data`, the checkpoint
 * itself as JSON text. Stores keep `data` verbatim and never parse it: decoding (and refusing a
 * corrupt, unknown-version or other-machine checkpoint) happens in one place, `decodeCheckpoint`.
 */
export interface CheckpointRecord {
  runId: string;
  /** 1 for a run's first save, then +1 per save: a save must follow the stored `seq` exactly. */
  seq: number;
  status: RunStatus;
  /** The machine state: `validating`, `waitingToRetry`, `awaitingReview`, or the final status. */
  state: string;
  /** The machine's id (`config.id ?? 'loop'`). */
  machineId: string;
  /** When it was saved, in ms since the epoch. */
  updatedAt: number;
  /** The checkpoint (format, machine fingerprint, snapshot, trace) as JSON text. */
  data: string;
}

/** A stored run without its data, as `list` returns it. */
export type RunSummary = Omit<CheckpointRecord, 'data'>;

export interface ListOptions {
  status?: RunStatus;
  /** At most this many runs (default: all). */
  limit?: number;
}

/**
 * Where checkpoints live: one row per run, replaced by every save. Implementations: the in-memory
 * `MemoryCheckpointStore` (core), `SqliteCheckpointStore` (`loopchart/sqlite`), or your own.
 *
 * The contract every store honours (test/stores/describeCheckpointStore.ts checks it):
 * - `save(record)` writes only if the stored row's `seq` is `record.seq - 1` (no row counts as 0),
 *   atomically; otherwise it rejects with `CheckpointError` code `conflict` and changes nothing.
 *   Two resumers at the same instant: one save lands, the other fails before it runs a step. (A
 *   resumer that arrives while another process is in a step is refused by that writer's claim,
 *   which every working checkpoint carries: see runClaim.ts.)
 * - `load` returns the record exactly as saved (`data` byte for byte), or `undefined`.
 * - `list` returns summaries, most recently updated first.
 * - `delete` returns whether a row was there.
 * @example const store = new MemoryCheckpointStore();
 *          const result = await runLoop(config, 'draft', { store, runId: 'invoice-42' });
 */
export interface CheckpointStore {
  save(record: CheckpointRecord): Promise<void>;
  load(runId: string): Promise<CheckpointRecord | undefined>;
  list(options?: ListOptions): Promise<RunSummary[]>;
  delete(runId: string): Promise<boolean>;
  /** Releases connections; the store is not used after it. */
  close?(): void | Promise<void>;
}
