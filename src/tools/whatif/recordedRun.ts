// The one place what-if reads a stored run: the decoded checkpoint through the loopView read model.

import { loopView } from '../../core/chart/loopView.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import type { FailureRecord } from '../../core/vocabulary/failures.js';
import { LOOP_STATUSES, type LoopStatus } from '../../core/vocabulary/statuses.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import type { Verdict } from '../../core/vocabulary/validation.js';
import type { CheckpointRecord } from '../../stores/kit/CheckpointStore.js';
import { decodeCheckpoint } from '../../stores/kit/checkpointFormat.js';

/** What a stored loop run holds that re-deciding it needs. */
export interface RecordedRun {
  runId: string;
  machineId: string;
  /** The terminal status, or `running` / `paused` for a run that has not ended. */
  status: LoopStatus | 'running' | 'paused';
  attempts: number;
  iterations: number;
  cost: number;
  settings: LoopSettings;
  trace: readonly TraceEntry[];
  /** The run's last verdict (the one a `terminate_with_partial` stopped on). */
  verdict: Verdict | undefined;
  /** The run's last failure, with the facts the trace does not keep (effect, retryAfterMs). */
  failure: FailureRecord | undefined;
}

/** A stored record that is not a loop run what-if can read. */
export interface UnreadableRun {
  runId: string;
  unreadable: string;
}

/**
 * Reads a stored record for re-deciding, or says why it cannot. Never throws.
 * @example const run = recordedRun(await store.load('invoice-42'));
 */
export function recordedRun(record: CheckpointRecord): RecordedRun | UnreadableRun {
  let checkpoint: ReturnType<typeof decodeCheckpoint>;
  try {
    checkpoint = decodeCheckpoint(record);
  } catch {
    return { runId: record.runId, unreadable: 'not a readable loop checkpoint' };
  }
  const view = loopView(checkpoint);
  if (!view) return { runId: record.runId, unreadable: 'not a loop run' };
  const outcome = view.outcome as { status?: unknown } | undefined;
  let status: RecordedRun['status'];
  if (checkpoint.status !== 'done') status = checkpoint.status;
  else if ((LOOP_STATUSES as readonly unknown[]).includes(outcome?.status)) {
    status = outcome?.status as LoopStatus;
  } else return { runId: record.runId, unreadable: 'a finished run without an outcome' };
  return {
    runId: record.runId,
    machineId: record.machineId,
    status,
    attempts: view.outcome?.attempts ?? view.attempts,
    iterations: view.outcome?.iterations ?? view.iterations,
    cost: view.outcome?.cost ?? view.cost,
    settings: view.settings,
    trace: checkpoint.trace,
    verdict: view.verdict,
    failure: view.failure,
  };
}
