import { checkAnswer } from '../answers/checkAnswer.js';
import type { LoopConfig } from '../config.js';
import {
  checkObservable,
  checkObserveOptions,
  type ObserveOptions,
  watchRun,
} from '../events/watchRun.js';
import { stepOfState } from '../machines/loopContext.js';
import type { LoopEvent } from '../machines/loopEvents.js';
import { type LoopView, loopView } from '../machines/loopView.js';
import type { LoopOutcome } from '../outcome.js';
import { CheckpointError } from './CheckpointError.js';
import { checkIfSeq } from './checkIfSeq.js';
import { type Checkpoint, decodeCheckpoint, type PersistedSnapshot } from './checkpointFormat.js';
import { pausedRun, type RunResult } from './PausedRun.js';
import {
  type CheckpointOptions,
  checkRunOptions,
  type InspectOption,
  prepareLoop,
} from './prepareLoop.js';
import { checkClaim } from './runClaim.js';

/** Options of `resumeLoop`. */
export interface ResumeOptions<C = unknown, I = unknown>
  extends CheckpointOptions,
    ObserveOptions<C> {
  runId: string;
  /**
   * The answer a paused run waits for (`review.*`, `clarification.answer`), or `loop.abort`.
   * It is untrusted input: a malformed one, an answer outside the question's `options`, or one
   * that fails the config's `answers` schemas is refused with `CheckpointError` `invalid_answer`.
   */
  event?: LoopEvent<I, C>;
  /**
   * Apply `event` only if the run is still at this checkpoint (a `PausedRun`'s `seq`); otherwise
   * reject with `CheckpointError` `conflict` and run nothing. Without it, an answer goes to
   * whatever pause the run is in when it arrives.
   */
  ifSeq?: number;
  signal?: AbortSignal;
  inspect?: InspectOption;
}

/**
 * Continues a checkpointed run with the same config that started it. A step in flight at the last
 * checkpoint re-runs only if it is idempotent, otherwise the run ends `unknown_outcome` naming it;
 * a retry wait lasts only its remainder; a paused run takes `event` (without one it stays paused
 * and is returned as is); a finished run returns its outcome. Rejects with `CheckpointError`
 * (`not_found`, `corrupt`, `unknown_version`, `other_machine`, `not_waiting`, and while running
 * `save_failed` / `conflict`; `conflict` too when `ifSeq` no longer matches), and never changes
 * a checkpoint it refuses.
 * @example const result = await resumeLoop(config, { store, runId: 'r1', event: { type: 'review.continue' } });
 */
export async function resumeLoop<I, C>(
  config: LoopConfig<I, C>,
  options: ResumeOptions<NoInfer<C>, NoInfer<I>>,
): Promise<RunResult<C>> {
  const { store, runId, claim } = checkRunOptions(options, true);
  checkObserveOptions(options); // also on the early returns below, which observe nothing
  const prepared = prepareLoop(config);
  checkObservable(options, prepared.settings);
  const { expected } = prepared;
  const record = await store.load(runId);
  if (!record) {
    throw new CheckpointError('not_found', runId, `loopchart: no checkpoint for run '${runId}'`);
  }
  const checkpoint = decodeCheckpoint(record, expected);
  checkIfSeq(runId, record.seq, options.ifSeq);
  if (checkpoint.status === 'done') {
    if (options.event !== undefined) {
      throw notWaiting(checkpoint, options.event, `has finished as ${checkpoint.state}`);
    }
    return checkpoint.snapshot.output as LoopOutcome<C>;
  }
  if (checkpoint.status === 'paused' && options.event === undefined) {
    return pausedRun<C>(runId, record.seq, loopView(checkpoint) as LoopView);
  }
  const event =
    options.event === undefined
      ? undefined
      : await checkAnswer(runId, options.event, checkpoint.pending, config.answers);
  markInFlightStep(checkpoint.snapshot);
  const restore = { snapshot: checkpoint.snapshot, inspect: options.inspect };
  const actor = prepared.actor(restore as never);
  if (event && !actor.getSnapshot().can(event)) {
    const waits =
      checkpoint.status === 'paused'
        ? `waits in ${checkpoint.state} for ${expects(checkpoint)}`
        : `is working (${checkpoint.state}) and takes only loop.abort`;
    throw notWaiting(checkpoint, event, waits);
  }
  checkClaim(runId, checkpoint.claim);
  const watch = await watchRun(options, expected.machineId);
  const drive = () =>
    prepared.drive<C>({
      actor,
      store,
      runId,
      seq: record.seq,
      event,
      signal: options.signal,
      claim,
    });
  return watch ? watch.watch(actor, true, drive) : drive();
}

function markInFlightStep(snapshot: PersistedSnapshot) {
  const step = stepOfState(snapshot.value);
  const child = step ? snapshot.children?.[step]?.snapshot : undefined;
  if (child?.status === 'active' && typeof child.input === 'object' && child.input !== null) {
    child.input = { ...child.input, resumed: true };
  }
}

function expects(checkpoint: Checkpoint): string {
  return checkpoint.pending?.kind === 'clarification'
    ? 'clarification.answer'
    : 'review.continue, review.modify, review.retry or review.abort';
}

function notWaiting(checkpoint: Checkpoint, event: unknown, why: string) {
  return new CheckpointError(
    'not_waiting',
    checkpoint.runId,
    `loopchart: run '${checkpoint.runId}' ${why}; it cannot take ${describeEvent(event)}`,
  );
}

function describeEvent(event: unknown): string {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type.slice(0, 80) : 'an event without a type';
}
