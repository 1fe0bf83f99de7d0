import type { StepName } from '../../core/vocabulary/failures.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { ParkedStep } from '../../stores/kit/checkpointFormat.js';
import { freezeParked } from './parkedDeadline.js';
import { rewriteHeader } from './rewriteHeader.js';

/**
 * Parks a working run whose non-idempotent `step` was in flight when its writer died: the next
 * checkpoint holds the same snapshot, paused with the reason, its deadline clock stopped, no
 * claim. Nothing runs; `reconcileRun` settles it. Rejects `conflict` (the store's compare-and-set)
 * when another writer saved the run since `record` was read.
 */
export async function parkRun(
  store: CheckpointStore,
  record: CheckpointRecord,
  step: StepName,
): Promise<ParkedStep> {
  const parked: ParkedStep = {
    reason: 'unknown_outcome',
    step,
    since: Date.now(),
    message: `${step} was in flight when the run's process died and is not idempotent: it may or may not have acted. Answer it happened (with its result), it did not happen (run it again) or give up`,
  };
  await store.save(rewriteHeader(record, { status: 'paused', parked, snapshot: freezeParked }));
  return parked;
}
