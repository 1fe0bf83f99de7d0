import type { AnyLoopConfig } from '../AnyLoopConfig.js';
import { type LoopConfig, resolveConfig } from '../config.js';
import { isLoopConfigError, LoopConfigError } from '../LoopConfigError.js';
import type { RunResult } from '../persistence/PausedRun.js';
import type { ClaimedRun, RunQueue } from './RunQueue.js';

/** Options of `createWorker`. */
export interface WorkerOptions {
  /** Where runs are queued and checkpointed, e.g. a `PostgresCheckpointStore`. */
  store: RunQueue;
  loops: Record<string, AnyLoopConfig>;
  /** Runs driven at once (default 1). */
  concurrency?: number;
  /**
   * How long a claim lasts unless renewed, in ms (default 30 000). The worker renews every third
   * of it; a run whose worker died is claimable again once it runs out.
   */
  leaseMs?: number;
  /** How long to wait before claiming again after finding nothing to do, in ms (default 500). */
  pollMs?: number;
  /** A run claimed this many times without reaching a pause or an end is failed (default 10). */
  maxClaims?: number;
  /** Names the worker in leases and errors (default `worker-` and 8 random hex digits). */
  workerId?: string;
  /**
   * Called when a run this worker drove ends or pauses. At most once per run end: a worker that
   * dies right after the final save never calls it; the store's queue entry is the record.
   */
  onSettled?: (result: RunResult, run: ClaimedRun) => void;
  /** A run it could not drive (lost lease, store failure, bad checkpoint) or a failed claim. */
  onError?: (error: unknown, run: ClaimedRun | undefined) => void;
}

export type ResolvedWorkerOptions = Required<Omit<WorkerOptions, 'onSettled'>> &
  Pick<WorkerOptions, 'onSettled'>;

const QUEUE_METHODS = ['claim', 'renew', 'fenced', 'release', 'save', 'load'] as const;

/** Checks the options (throws `LoopConfigError` naming each bad field) and fills the defaults. */
export function resolveWorkerOptions(options: WorkerOptions): ResolvedWorkerOptions {
  const problems: string[] = [];
  const { store, loops } = options ?? ({} as WorkerOptions);
  if (!store || QUEUE_METHODS.some((m) => typeof store[m] !== 'function')) {
    problems.push(`  - store: must be a RunQueue (${QUEUE_METHODS.join(', ')})`);
  }
  const names = typeof loops === 'object' && loops !== null ? Object.keys(loops) : [];
  if (names.length === 0) problems.push('  - loops: must name at least one loop config');
  for (const name of names) {
    try {
      resolveConfig(loops[name] as LoopConfig);
    } catch (error) {
      if (!isLoopConfigError(error)) throw error;
      for (const line of error.message.split('\n').slice(1)) {
        problems.push(`  - loops.${name}.${line.trim().replace(/^- /, '')}`);
      }
    }
  }
  const integer = (field: keyof WorkerOptions, min: number, max: number, fallback: number) => {
    const value = options?.[field] ?? fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) {
      return value;
    }
    problems.push(`  - ${field}: must be an integer from ${min} to ${max}`);
    return fallback;
  };
  const concurrency = integer('concurrency', 1, 1000, 1);
  const leaseMs = integer('leaseMs', 100, 86_400_000, 30_000);
  const pollMs = integer('pollMs', 1, 3_600_000, 500);
  const maxClaims = integer('maxClaims', 1, 1000, 10);
  const workerId = options?.workerId ?? `worker-${randomHex(8)}`;
  if (typeof workerId !== 'string' || workerId.length === 0 || workerId.length > 200) {
    problems.push('  - workerId: must be a string of 1 to 200 characters');
  }
  for (const hook of ['onSettled', 'onError'] as const) {
    if (options?.[hook] !== undefined && typeof options[hook] !== 'function') {
      problems.push(`  - ${hook}: must be a function`);
    }
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid worker options\n${problems.join('\n')}`);
  }
  return {
    store,
    loops,
    concurrency,
    leaseMs,
    pollMs,
    maxClaims,
    workerId,
    onSettled: options.onSettled,
    onError: options.onError ?? logError(workerId),
  };
}

function logError(workerId: string) {
  return (error: unknown, run: ClaimedRun | undefined) => {
    const message = error instanceof Error ? error.message : String(error);
    const where = run ? `run '${run.runId}'` : 'claiming';
    console.error(`loopchart worker ${workerId}: ${where}: ${message}`);
  };
}

function randomHex(digits: number): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, digits);
}
