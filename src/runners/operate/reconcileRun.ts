import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import { decodeCheckpoint } from '../../stores/kit/checkpointFormat.js';
import { loadWithin } from '../../stores/kit/loadWithin.js';
import { checkIfSeq } from '../loop/checkIfSeq.js';
import type { RunResult } from '../loop/PausedRun.js';
import { type CheckpointOptions, checkRunOptions, prepareLoop } from '../loop/prepareLoop.js';
import { markInFlightStep, restoreDeadline } from '../loop/resumeLoop.js';
import { thawParked } from './parkedDeadline.js';
import { checkReconcileAnswer, type ReconcileAnswer } from './reconcileAnswer.js';
import { rewriteHeader } from './rewriteHeader.js';

/** Options of `reconcileRun`. */
export interface ReconcileOptions extends CheckpointOptions {
  runId: string;
  /** What really happened to the step in flight; untrusted input, checked before anything runs. */
  answer: ReconcileAnswer;
  /** Settle only if the run is still at this checkpoint, else `conflict` and nothing runs. */
  ifSeq?: number;
  signal?: AbortSignal;
}

/**
 * Settles a parked run (its non-idempotent step was in flight when its process died) with what
 * really happened, and drives it on to its end or next pause: `outcome.happened` takes `result`
 * as the step's return value without calling the step; `outcome.did_not_happen` runs the step
 * once more; `outcome.give_up` ends the run `unknown_outcome`. The answer claims the run first
 * (one save, compare-and-set), so of two answers racing only one is applied; the other rejects
 * `conflict` having run nothing. Refuses with `CheckpointError` (`not_found`, `corrupt`,
 * `other_machine`, `not_waiting` for a run that is not parked, `invalid_answer`), the row unchanged.
 * @example await reconcileRun(config, { store, runId: 'r1', answer: { type: 'outcome.happened', result: 'sent #812' } });
 */
export async function reconcileRun<I, C>(
  config: LoopConfig<I, C>,
  options: ReconcileOptions,
): Promise<RunResult<C>> {
  const { store, runId, claim } = checkRunOptions(options, true);
  const answer = checkReconcileAnswer(runId, options.answer);
  const { expected, settings } = prepareLoop(config);
  const record = await loadWithin(store, runId, settings.deadlineMs);
  if (!record) {
    throw new CheckpointError('not_found', runId, `loopchart: no checkpoint for run '${runId}'`);
  }
  const checkpoint = decodeCheckpoint(record, expected);
  checkIfSeq(runId, record.seq, options.ifSeq);
  if (!checkpoint.parked) {
    throw new CheckpointError(
      'not_waiting',
      runId,
      `loopchart: run '${runId}' is not parked (it is ${checkpoint.status} in ${checkpoint.state}); only a parked run takes ${answer.type}`,
    );
  }
  const { step } = checkpoint.parked;
  const owner = { owner: claim.owner, expiresAt: Date.now() + claim.ttlMs };
  const claimed = rewriteHeader(record, { status: 'running', claim: owner, snapshot: thawParked });
  await store.save(claimed);
  const { snapshot } = decodeCheckpoint(claimed, expected);
  restoreDeadline(snapshot, settings.deadlineMs);
  if (answer.type === 'outcome.give_up') markInFlightStep(snapshot);
  const prepared = prepareLoop(
    answer.type === 'outcome.happened' ? answeredOnce(config, step, answer.result) : config,
  );
  const actor = prepared.actor({ snapshot } as never);
  return prepared.drive<C>({
    actor,
    store,
    runId,
    seq: claimed.seq,
    signal: options.signal,
    claim,
  });
}

/**
 * The config with `step`'s next call answered by `result` instead of the user's function; later
 * calls (a refine cycle later) run the function again. Step code is not part of the machine's
 * fingerprint, so the run continues under the same definition.
 */
function answeredOnce<I, C>(config: LoopConfig<I, C>, step: StepName, result: unknown) {
  const original = config[step] as ((...args: unknown[]) => unknown) | undefined;
  let answered = false;
  const replaced = (...args: unknown[]) => {
    if (answered) return original?.(...args);
    answered = true;
    return result;
  };
  return { ...config, [step]: replaced } as LoopConfig<I, C>;
}
