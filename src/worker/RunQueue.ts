import type { LoopEvent } from '../machines/loopEvents.js';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';

/** Where a queued run is: waiting to be claimed, held by a worker, waiting for a person, or over. */
export type QueueState = 'queued' | 'leased' | 'paused' | 'done' | 'failed';

/** The queue states, for validation and filters. */
export const QUEUE_STATES = [
  'queued',
  'leased',
  'paused',
  'done',
  'failed',
] as const satisfies readonly QueueState[];

/** A run to start: which of the workers' loops runs it, on what input. */
export interface NewRun {
  /** A key of the workers' `loops`. */
  loop: string;
  /** JSON-safe: it is stored until a worker claims the run. */
  input?: unknown;
  /** A random UUID when omitted. */
  runId?: string;
}

/**
 * The right to write one run's checkpoints until `expiresAt`. `token` grows with every claim of
 * the run, so a worker whose lease was taken over can no longer save (it is fenced).
 */
export interface Lease {
  runId: string;
  owner: string;
  token: number;
  /** ms since the epoch, by the store's clock. */
  expiresAt: number;
}

/** A run a worker has just claimed: what to drive, and from where. */
export interface ClaimedRun {
  runId: string;
  loop: string;
  input: unknown;
  /** The stored checkpoint's `seq`: 0 means the run has not started. */
  seq: number;
  /** The answer posted to the paused checkpoint `seq`, to resume it with. */
  event?: LoopEvent;
  /** Set when `send(runId, { type: 'loop.abort' })` asked the run to stop. */
  abortReason?: string;
  /** Claims since the run was queued or last paused, this one included. */
  claims: number;
  lease: Lease;
}

/** What `renew` found: the leases still held (with their new expiry) and the aborts asked for. */
export interface Renewal {
  held: Lease[];
  /** Runs among the held ones that `send(runId, { type: 'loop.abort' })` asked to stop. */
  aborts: { runId: string; reason: string }[];
}

/** How a worker lets go of a run that it did not finish with a checkpoint save. */
export type Release =
  | { state: 'done'; outcome: string }
  | { state: 'paused' }
  | { state: 'failed'; error: string }
  | { state: 'queued'; delayMs: number };

/** One queue entry, as `entry(runId)` shows it. */
export interface QueueEntry {
  runId: string;
  loop: string;
  state: QueueState;
  /** The worker holding it (or that held it last). */
  owner: string | null;
  /** Claims since it was queued or last paused (a worker that dies leaves one behind). */
  claims: number;
  /** The final status of a `done` run. */
  outcome: string | null;
  /** Why a `failed` run could not be driven (a corrupt checkpoint, another definition…). */
  error: string | null;
  enqueuedAt: number;
  updatedAt: number;
}

/**
 * A checkpoint store that also queues runs for workers and leases them out. `createWorker` needs
 * only `claim`, `renew`, `fenced` and `release`; users call `enqueue` and `send`.
 * `PostgresCheckpointStore` (`loopchart/postgres`) implements it.
 */
export interface RunQueue extends CheckpointStore {
  /** Queues a run for the workers; resolves to its run id. */
  enqueue(run: NewRun): Promise<string>;
  /**
   * Posts an event to a queued run: an answer (`review.*`, `clarification.answer`) to a paused run
   * makes it claimable again; `loop.abort` stops a run wherever it is. Rejects with
   * `CheckpointError` `not_found` or `not_waiting`.
   */
  send(runId: string, event: LoopEvent): Promise<void>;
  /** Atomically leases up to `limit` claimable runs of these loops to `owner` for `leaseMs`. */
  claim(request: {
    owner: string;
    loops: readonly string[];
    limit: number;
    leaseMs: number;
  }): Promise<ClaimedRun[]>;
  /** Extends the leases still held by `leaseMs` from now; a lease not returned is lost. */
  renew(leases: readonly Lease[], leaseMs: number): Promise<Renewal>;
  /**
   * The store as the lease holder sees it: a save succeeds only while `lease` holds (else it
   * rejects with `CheckpointError` `conflict`), and a final save marks the entry done with it.
   */
  fenced(lease: Lease): CheckpointStore;
  /** Lets go of a run while the lease still holds (a no-op once it does not). */
  release(lease: Lease, release: Release): Promise<void>;
}
