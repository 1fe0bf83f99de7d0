import { isCheckpointError } from '../persistence/CheckpointError.js';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
import { isPausedRun, type RunResult } from '../persistence/PausedRun.js';
import { resumeLoop } from '../persistence/resumeLoop.js';
import { runLoop } from '../runLoop.js';
import type { ClaimedRun, Lease, Release } from './RunQueue.js';
import { resolveWorkerOptions, type WorkerOptions } from './workerOptions.js';

/** A started worker: it claims runs of its loops and drives them until `stop()`. */
export interface Worker {
  readonly id: string;
  /** Runs it drives right now. */
  readonly active: number;
  /** Stops claiming, waits for the runs in hand to end or pause, then stops renewing leases. */
  stop(): Promise<void>;
}

interface Held {
  run: ClaimedRun;
  lease: Lease;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Starts a worker: it claims runnable runs of its `loops` from the store (new ones, answered
 * pauses, and runs whose worker's lease ran out), at most `concurrency` at a time, and drives
 * each with the checkpoint-and-resume logic of `runLoop` / `resumeLoop`. It renews its leases
 * while it works; a run whose lease it lost is aborted and its next save refused, so it stops
 * before its next step. Config errors throw `LoopConfigError` naming the field.
 * @example const worker = createWorker({ store, loops: { invoice: invoiceLoop }, concurrency: 8 });
 *          process.on('SIGTERM', () => worker.stop());
 */
export function createWorker(options: WorkerOptions): Worker {
  const settings = resolveWorkerOptions(options);
  const { store, loops, concurrency, leaseMs, pollMs, maxClaims, workerId: id } = settings;
  const names = Object.keys(loops);
  const inHand = new Map<string, Held>();
  let running = true;
  let wake = () => {};
  const report = (error: unknown, run?: ClaimedRun) => {
    try {
      settings.onError(error, run);
    } catch {
      // A throwing error hook must not take the worker down.
    }
  };

  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === Number.POSITIVE_INFINITY ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const pump = async () => {
    while (running) {
      const free = concurrency - inHand.size;
      if (free <= 0) {
        await nap(Number.POSITIVE_INFINITY); // until a run settles or stop()
        continue;
      }
      let claimed: ClaimedRun[] = [];
      try {
        claimed = await store.claim({ owner: id, loops: names, limit: free, leaseMs });
      } catch (error) {
        report(error);
      }
      for (const run of claimed) take(run);
      if (running && claimed.length < free) await nap(pollMs);
    }
  };

  const take = (run: ClaimedRun) => {
    const controller = new AbortController();
    if (run.abortReason !== undefined) controller.abort(run.abortReason);
    const held: Held = { run, lease: run.lease, controller, done: Promise.resolve() };
    inHand.set(run.runId, held);
    held.done = drive(held).finally(() => {
      inHand.delete(run.runId);
      wake();
    });
  };

  const drive = async ({ run, lease, controller }: Held) => {
    const config = loops[run.loop];
    if (!config || run.claims > maxClaims) {
      const error = config
        ? `claimed ${run.claims} times without reaching a pause or an end (maxClaims ${maxClaims})`
        : `this worker has no loop '${run.loop}'`;
      await store.release(lease, { state: 'failed', error }).catch(report);
      report(new Error(`loopchart: run '${run.runId}' failed: ${error}`), run);
      return;
    }
    const inner = store.fenced(lease);
    let savedFinal = false;
    const fenced: CheckpointStore = {
      save: async (record) => {
        await inner.save(record);
        if (record.status === 'done') savedFinal = true;
      },
      load: (id) => inner.load(id),
      list: (options) => inner.list(options),
      delete: (id) => inner.delete(id),
    };
    const { runId } = run;
    let result: RunResult;
    try {
      const signal = controller.signal;
      result =
        run.seq === 0
          ? await runLoop(config, run.input, { store: fenced, runId, signal, claimTtlMs: leaseMs })
          : await resumeLoop(config, {
              store: fenced,
              runId,
              signal,
              event: run.event,
              claimTtlMs: leaseMs,
            });
    } catch (error) {
      await store.release(lease, releaseAfter(error, pollMs)).catch(report);
      report(error, run);
      return;
    }
    // A final save marked the entry done already; a pause, or a run found finished, is released.
    if (!savedFinal) {
      const release: Release = isPausedRun(result)
        ? { state: 'paused' }
        : { state: 'done', outcome: result.status };
      await store.release(lease, release).catch(report);
    }
    try {
      settings.onSettled?.(result, run);
    } catch (error) {
      report(error, run);
    }
  };

  const renewAll = async () => {
    const leases = [...inHand.values()].map((held) => held.lease);
    if (leases.length === 0) return;
    try {
      const { held, aborts } = await store.renew(leases, leaseMs);
      const kept = new Map(held.map((lease) => [lease.runId, lease]));
      for (const lease of leases) {
        const holder = inHand.get(lease.runId);
        if (holder?.lease.token !== lease.token) continue;
        const renewed = kept.get(lease.runId);
        if (renewed) holder.lease = renewed;
        else holder.controller.abort(`worker '${id}' lost its lease on run '${lease.runId}'`);
      }
      for (const { runId, reason } of aborts) inHand.get(runId)?.controller.abort(reason);
    } catch (error) {
      report(error); // the lease may still hold: keep working, the next save is fenced anyway
    }
  };

  let renewing: Promise<void> = Promise.resolve();
  const renewTimer = setInterval(
    () => {
      renewing = renewing.then(renewAll);
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  const pumping = pump();
  let stopped: Promise<void> | undefined;

  return {
    id,
    get active() {
      return inHand.size;
    },
    stop() {
      stopped ??= (async () => {
        running = false;
        wake();
        await pumping;
        await Promise.all([...inHand.values()].map((held) => held.done));
        clearInterval(renewTimer);
        await renewing;
      })();
      return stopped;
    },
  };
}

/** What to do with a run whose drive failed. */
function releaseAfter(error: unknown, pollMs: number): Release {
  if (!isCheckpointError(error)) {
    // A store outage while loading, or a bug: another claim may do better; maxClaims bounds it.
    return { state: 'queued', delayMs: pollMs };
  }
  switch (error.code) {
    case 'conflict': // the lease is gone (then this is a no-op), or another writer wrote the run
    case 'save_failed':
      return { state: 'queued', delayMs: pollMs };
    case 'not_waiting': // the answer did not fit the pause: drop it, the run waits on
      return { state: 'paused' };
    default: // not_found, corrupt, unknown_version, other_machine: no claim can drive it
      return { state: 'failed', error: error.message };
  }
}
