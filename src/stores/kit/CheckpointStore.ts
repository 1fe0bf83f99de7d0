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

/** Which runs `scan` returns, and where its page starts. */
export interface ScanOptions {
  /** Only runs of this machine id. */
  machineId?: string;
  /** Only runs saved at or after this time (ms since the epoch). */
  since?: number;
  /** Only runs saved before this time (ms since the epoch). */
  until?: number;
  /** Start after this run id: the last `runId` of the previous page. */
  after?: string;
  /** At most this many records. */
  limit: number;
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
  /**
   * Optional: one page of whole records in ascending run-id order, so a reader can walk every run
   * (`loopHealth`) holding one page at a time. Not a snapshot: a run saved during a walk is seen
   * once, with whichever save the page read; a run created behind the cursor is missed.
   */
  scan?(options: ScanOptions): Promise<CheckpointRecord[]>;
  /** Releases connections; the store is not used after it. */
  close?(): void | Promise<void>;
}
