import { CheckpointError } from '../persistence/CheckpointError.js';
import type { CheckpointRecord } from '../persistence/CheckpointStore.js';
import type { Lease } from '../worker/RunQueue.js';

/** What `diagnose` found about a run whose fenced save wrote nothing. */
interface Found {
  state?: string | null;
  lease_owner?: string | null;
  lease_token?: number | null;
  live?: boolean | null;
}

/**
 * The refusal of a save by a worker whose lease no longer holds: a `conflict`, like any second
 * writer, so the run stops before its next step.
 */
export function leaseLost(record: CheckpointRecord, lease: Lease, found: Found): CheckpointError {
  let why = 'the lease expired';
  if (!found.state) why = 'the run left the queue';
  else if (found.state !== 'leased') why = `the run is ${found.state}`;
  else if (found.lease_token !== lease.token) {
    why = `worker '${found.lease_owner}' claimed it after the lease expired`;
  }
  return new CheckpointError(
    'conflict',
    record.runId,
    `loopchart: worker '${lease.owner}' lost its lease on run '${record.runId}' (${why}); checkpoint #${record.seq} was not saved and the run stopped before its next step`,
  );
}
