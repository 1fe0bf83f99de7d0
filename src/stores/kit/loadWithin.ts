import { GRACE_MS } from '../../core/chart/deadline.js';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import { storeTimeout } from './CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from './CheckpointStore.js';

/**
 * Loads a run's record, but waits no longer than `ms` (the run's time and its grace; `null`: as
 * long as the store takes): a store that does not answer rejects with `CheckpointError`
 * `store_timeout`.
 */
export function loadWithin(
  store: CheckpointStore,
  runId: string,
  ms: number | null,
  budget?: string,
): Promise<CheckpointRecord | undefined> {
  const load = () => store.load(runId);
  if (ms === null) return load();
  const timeout = () => storeTimeout(runId, 'the load', ms, budget);
  return withTimeLimit(load, { ms: ms + GRACE_MS, timeout });
}
