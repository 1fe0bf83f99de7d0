import type { CheckpointRecord, RunStatus } from '../../stores/kit/CheckpointStore.js';
import type { ParkedStep, PersistedSnapshot } from '../../stores/kit/checkpointFormat.js';
import type { RunClaim } from '../../stores/kit/runClaim.js';

/** What changes in a checkpoint's header when a run is parked, or claimed to settle its park. */
export interface HeaderChange {
  status: RunStatus;
  parked?: ParkedStep | undefined;
  claim?: RunClaim | undefined;
  /** Changes the stored snapshot (its deadline ledger) on the way. */
  snapshot?: ((snapshot: PersistedSnapshot) => PersistedSnapshot) | undefined;
}

/**
 * The next record of a run whose snapshot stays as stored: `seq` + 1, a new status, and the
 * parked note or the claim set or dropped. The snapshot's JSON is copied through unparsed fields
 * untouched, so the run continues exactly where the stored row left it.
 */
export function rewriteHeader(record: CheckpointRecord, change: HeaderChange): CheckpointRecord {
  const {
    parked: _parked,
    claim: _claim,
    ...data
  } = JSON.parse(record.data) as Record<string, unknown>;
  const seq = record.seq + 1;
  const savedAt = Date.now();
  const next = {
    ...data,
    seq,
    savedAt,
    status: change.status,
    ...(change.snapshot ? { snapshot: change.snapshot(data.snapshot as PersistedSnapshot) } : {}),
    ...(change.parked ? { parked: change.parked } : {}),
    ...(change.claim ? { claim: change.claim } : {}),
  };
  return { ...record, seq, status: change.status, updatedAt: savedAt, data: JSON.stringify(next) };
}
