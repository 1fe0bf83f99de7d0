import type { CheckpointStore } from './CheckpointStore.js';

// per store object: the same run id in two stores is two runs
const driving = new WeakMap<CheckpointStore, Map<string, number>>();

/**
 * Whether this process is driving `runId` in `store` right now. A claim held under this process's
 * own `claimOwner` is taken over at once as its dead earlier life's, unless it is this: a live run
 * of this very process (a periodic `recoverRuns` beside live work) is left to its driver.
 */
export function drivenHere(store: CheckpointStore, runId: string): boolean {
  return (driving.get(store)?.get(runId) ?? 0) > 0;
}

/** Marks `runId` as driven by this process until `run` settles; returns `run`. */
export function whileDrivenHere<T>(
  store: CheckpointStore,
  runId: string,
  run: Promise<T>,
): Promise<T> {
  const held = driving.get(store) ?? new Map<string, number>();
  driving.set(store, held);
  held.set(runId, (held.get(runId) ?? 0) + 1);
  const release = () => {
    const left = (held.get(runId) ?? 1) - 1;
    if (left > 0) held.set(runId, left);
    else held.delete(runId);
  };
  return run.finally(release);
}
