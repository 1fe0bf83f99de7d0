import type { LoopContext } from '../../core/chart/loopContext.js';
import type { LoopConfig, LoopSettings } from '../../core/vocabulary/config.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import {
  decodeCheckpoint,
  encodeCheckpoint,
  type PersistedSnapshot,
} from '../../stores/kit/checkpointFormat.js';
import type { RunResult } from '../loop/PausedRun.js';
import { type CheckpointOptions, checkRunOptions, prepareLoop } from '../loop/prepareLoop.js';
import { restoreDeadline } from '../loop/resumeLoop.js';
import type { BranchStart } from './branchSnapshot.js';

/** What was spent by the run a branch starts from. */
export interface Spent {
  retries: number;
  attempts: number;
  cost: number;
}

/** The original run a branch starts from, read and checked: it must have stopped at a refine. */
export async function branchSource(store: CheckpointStore, runId: string, fromSeq?: number) {
  const record = await store.load(runId);
  if (!record) {
    throw new CheckpointError('not_found', runId, `loopchart: no checkpoint for run '${runId}'`);
  }
  if (fromSeq !== undefined && fromSeq !== record.seq) {
    throw new CheckpointError(
      'not_found',
      runId,
      `loopchart: run '${runId}' keeps checkpoint #${record.seq} only (a store holds each run's latest checkpoint), not #${fromSeq}`,
    );
  }
  const checkpoint = decodeCheckpoint(record);
  const context = checkpoint.snapshot.context as unknown as LoopContext;
  const start = branchStart(checkpoint.status, checkpoint.state, checkpoint.snapshot, context);
  if (!start) {
    throw new CheckpointError(
      'not_waiting',
      runId,
      `loopchart: run '${runId}' (${checkpoint.status}, ${checkpoint.state}) did not stop at a correctable verdict it could refine, nor at retry_exhausted of a step it could run again, so no branch can start from it without running a recorded step again`,
    );
  }
  const spent: Spent = {
    retries: context.retryCount,
    attempts: context.attempts,
    cost: context.cost,
  };
  return { record, checkpoint, context, spent, start };
}

/**
 * Where a finished run can go on without repeating a recorded step: a refine when it stopped at
 * the routing decision with a correctable verdict, or the step again when transient failures
 * ended it (`retry_exhausted`; not a fallback, which runs at most once).
 */
function branchStart(
  status: string,
  state: string,
  snapshot: { output?: unknown },
  context: LoopContext,
): BranchStart | undefined {
  if (status !== 'done') return undefined;
  const output = snapshot.output as { error?: { state?: string } } | undefined;
  if (
    output?.error?.state === 'routing' &&
    context.feedback?.severity === 'correctable' &&
    context.candidate !== undefined
  ) {
    return 'refine';
  }
  const step = context.failure?.step;
  if (state === 'retry_exhausted' && step !== undefined && step !== 'fallback') {
    return { restart: step };
  }
  return undefined;
}

/** Refuses settings that leave the branch no refine, attempt or cost after what was spent. */
export function checkCapsLeft(settings: LoopSettings, spent: Spent, start: BranchStart): void {
  const problems: string[] = [];
  const refines = start === 'refine' ? 1 : 0;
  if (spent.retries + refines > settings.maxRetries) {
    problems.push(
      `  - maxRetries: ${settings.maxRetries}, but ${spent.retries} refines are spent${refines ? ' and the branch starts with one more' : ''}`,
    );
  }
  if (spent.attempts >= settings.maxAttempts) {
    problems.push(
      `  - maxAttempts: ${settings.maxAttempts}, but ${spent.attempts} attempts are spent`,
    );
  }
  if (settings.maxCost !== null && spent.cost >= settings.maxCost) {
    problems.push(`  - maxCost: ${settings.maxCost}, but ${spent.cost} is spent`);
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: the branch has nothing left\n${problems.join('\n')}`);
  }
}

/**
 * Saves a branched run's first checkpoint (checkpoint #1 of a new run id: a taken id is
 * `conflict`), checked like any stored row, then drives it from there to its end or next pause.
 */
export async function driveBranch<I, C>(
  config: LoopConfig<I, C>,
  options: CheckpointOptions & { runId: string; signal?: AbortSignal | undefined },
  build: (settings: LoopSettings) => PersistedSnapshot,
): Promise<RunResult<C>> {
  const { store, runId, claim } = checkRunOptions(options, true);
  const prepared = prepareLoop(config);
  const { expected, settings } = prepared;
  const snapshot = build(settings);
  const header = {
    runId,
    machineId: expected.machineId,
    machine: expected.fingerprint,
    seq: 1,
    paused: false,
    claim: { owner: claim.owner, expiresAt: Date.now() + claim.ttlMs },
  };
  const record = encodeCheckpoint(header, snapshot);
  const restored = decodeCheckpoint(record, expected).snapshot;
  await store.save(record);
  restoreDeadline(restored, settings.deadlineMs);
  const actor = prepared.actor({ snapshot: restored } as never);
  return prepared.drive<C>({ actor, store, runId, seq: 1, signal: options.signal, claim });
}
