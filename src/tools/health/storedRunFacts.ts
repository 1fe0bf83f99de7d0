// The one place the health report reads a stored run. Everything it needs of a checkpoint's
// snapshot (through the loopView read model, the outcome's shape, trace conventions) is decoded here, so
// a change of the stored shape is a change of this file alone.

import { type LoopView, loopView } from '../../core/chart/loopView.js';
import type { FailureKind } from '../../core/vocabulary/failures.js';
import { LOOP_STATUSES, type LoopStatus } from '../../core/vocabulary/statuses.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import type { Verdict } from '../../core/vocabulary/validation.js';
import { pipelineRecordOf } from '../../runners/pipeline/pipelineRecord.js';
import type { CheckpointRecord } from '../../stores/kit/CheckpointStore.js';
import { decodeCheckpoint } from '../../stores/kit/checkpointFormat.js';

/** How a validator answered one candidate. */
export const VERDICT_CLASSES = [
  'valid',
  'correctable',
  'fundamental',
  'no_diagnostic',
  'malformed',
] as const;
export type VerdictClass = (typeof VERDICT_CLASSES)[number];

/** What the health report knows of one stored loop run. */
export interface StoredRunFacts {
  runId: string;
  machineId: string;
  /** The terminal status, or `running` / `paused` for a run that has not ended. */
  status: LoopStatus | 'running' | 'paused';
  /** Refine cycles performed. */
  iterations: number;
  attempts: number;
  /** The run's refine budget. */
  maxRetries: number;
  cost: number;
  /** One per validation the loop routed on, in order, with when it was taken. */
  verdicts: { verdict: VerdictClass; at: number }[];
  /** For a stalled run: the repeated fingerprint and the refine cycle it stalled at. */
  stall: { fingerprint: string; iteration: number } | undefined;
  /** The kind of every failed step, transient retries included. */
  failures: FailureKind[];
  /** Steps that succeeded right after a transient retry. */
  intermittent: number;
  /** Whether the run's trace was on: without it the verdict mix is unknown. */
  traced: boolean;
  startedAt: number;
  updatedAt: number;
}

/** A stored record the report cannot read as a loop run, and why. */
export interface SkippedRun {
  runId: string;
  reason: 'pipeline' | 'unreadable';
}

/** Decisions that the routing state takes only on a correctable verdict. */
const AFTER_CORRECTABLE = new Set<string>([
  'refine',
  'fallback',
  'stalled',
  'iteration_exhausted',
  'ceiling_stop',
  'budget_stop',
]);

/**
 * Reads a stored record as a loop run's facts, or says why it cannot (a pipeline's record, a
 * corrupt or unknown-version checkpoint). Never throws.
 * @example const facts = storedRunFacts(await store.load('run-1'));
 */
export function storedRunFacts(record: CheckpointRecord): StoredRunFacts | SkippedRun {
  let checkpoint: ReturnType<typeof decodeCheckpoint>;
  try {
    checkpoint = decodeCheckpoint(record);
  } catch {
    return {
      runId: record.runId,
      reason: pipelineRecordOf(record.data) ? 'pipeline' : 'unreadable',
    };
  }
  const { snapshot, trace } = checkpoint;
  const view = loopView(checkpoint);
  if (!view) return { runId: record.runId, reason: 'unreadable' };
  const output = snapshot.output as StoredOutput | undefined;
  let status: StoredRunFacts['status'];
  if (checkpoint.status !== 'done') status = checkpoint.status;
  else if (isLoopStatus(output?.status)) status = output.status;
  else return { runId: record.runId, reason: 'unreadable' };
  const finalVerdict = view.verdict;
  return {
    runId: record.runId,
    machineId: record.machineId,
    status,
    iterations: output?.iterations ?? view.iterations,
    attempts: output?.attempts ?? view.attempts,
    maxRetries: view.settings.maxRetries,
    cost: output?.cost ?? view.cost,
    verdicts: verdictsOf(trace, finalVerdict),
    stall:
      status === 'stalled' && output?.error?.fingerprint
        ? { fingerprint: output.error.fingerprint, iteration: output.iterations ?? 0 }
        : undefined,
    failures: failuresOf(trace, view),
    intermittent: trace.filter((entry) => entry.intermittent).length,
    traced: view.settings.trace !== false,
    startedAt: trace[0]?.startedAt ?? record.updatedAt,
    updatedAt: record.updatedAt,
  };
}

interface StoredOutput {
  status: string;
  iterations: number;
  attempts: number;
  cost: number;
  error?: { fingerprint?: string };
}

/**
 * The verdict of each validation the loop routed on. The trace records the decision, not the
 * severity: a decision only a correctable verdict leads to says correctable, `proceed` says valid,
 * and a stop on the verdict (`terminate_with_partial`) is the run's last verdict, kept in context.
 */
function verdictsOf(trace: readonly TraceEntry[], last: Verdict | undefined) {
  const verdicts: { verdict: VerdictClass; at: number }[] = [];
  let validation: TraceEntry | undefined;
  for (const entry of trace) {
    if (entry.state === 'validating' && entry.failureKind === undefined) validation = entry;
    else if (validation && entry.decision !== undefined && entry.decision !== 'review') {
      const verdict =
        entry.decision === 'proceed'
          ? 'valid'
          : AFTER_CORRECTABLE.has(entry.decision)
            ? 'correctable'
            : entry.decision === 'terminate_with_partial'
              ? classOf(last)
              : undefined;
      if (verdict) verdicts.push({ verdict, at: validation.startedAt });
      validation = undefined;
    }
  }
  return verdicts;
}

function classOf(verdict: Verdict | undefined): VerdictClass {
  if (verdict === undefined || 'malformed' in verdict) return 'malformed';
  if (verdict.valid) return 'valid';
  if (!verdict.error) return 'no_diagnostic';
  return verdict.error.severity;
}

function failuresOf(trace: readonly TraceEntry[], view: LoopView): FailureKind[] {
  const kinds = trace.flatMap((entry) => (entry.failureKind ? [entry.failureKind] : []));
  if (kinds.length > 0 || view.settings.trace !== false) return kinds;
  return view.failure ? [view.failure.kind] : [];
}

function isLoopStatus(value: unknown): value is LoopStatus {
  return (LOOP_STATUSES as readonly unknown[]).includes(value);
}
