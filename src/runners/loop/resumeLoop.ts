import { planOf } from '../../core/chart/compileLoop.js';
import type { LoopContext } from '../../core/chart/loopContext.js';
import { stepOfState } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import {
  type Checkpoint,
  decodeCheckpoint,
  type PersistedSnapshot,
} from '../../stores/kit/checkpointFormat.js';
import { drivenHere } from '../../stores/kit/drivenHere.js';
import { loadWithin } from '../../stores/kit/loadWithin.js';
import { checkClaim } from '../../stores/kit/runClaim.js';
import { checkAnswer } from './checkAnswer.js';
import { checkIfSeq } from './checkIfSeq.js';
import { pausedRun, type RunResult } from './PausedRun.js';
import {
  type CheckpointOptions,
  checkRunOptions,
  type InspectOption,
  prepareLoop,
} from './prepareLoop.js';
import type { LoopSource } from './runLoop.js';
import { checkObservable, checkObserveOptions, type ObserveOptions, watchRun } from './watchRun.js';

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
 * Continues a checkpointed run with the same config (or its plan) that started it. A step in flight at the last
 * checkpoint re-runs only if it is idempotent, otherwise the run ends `unknown_outcome` naming it;
 * a retry wait lasts only its remainder; a paused run takes `event` (without one it stays paused
 * and is returned as is); a finished run returns its outcome. Rejects with `CheckpointError`
 * (`not_found`, `corrupt`, `unknown_version`, `other_machine`, `not_waiting`, and while running
 * `save_failed` / `conflict`; `conflict` too when `ifSeq` no longer matches), and never changes
 * a checkpoint it refuses.
 * @example const result = await resumeLoop(config, { store, runId: 'r1', event: { type: 'review.continue' } });
 */
export async function resumeLoop<I, C>(
  config: LoopSource<I, C>,
  options: ResumeOptions<NoInfer<C>, NoInfer<I>>,
): Promise<RunResult<C>> {
  const { store, runId, claim } = checkRunOptions(options, true);
  checkObserveOptions(options); // also on the early returns below, which observe nothing
  const plan = planOf(config);
  const prepared = prepareLoop(plan);
  checkObservable(options, prepared.settings);
  const { expected } = prepared;
  const { deadlineMs } = prepared.settings;
  // the load counts against the run's time too: no more than its whole budget
  const record = await loadWithin(store, runId, deadlineMs);
  if (!record) {
    throw new CheckpointError('not_found', runId, `loopchart: no checkpoint for run '${runId}'`);
  }
  const checkpoint = decodeCheckpoint(record, expected);
  checkIfSeq(runId, record.seq, options.ifSeq);
  if (checkpoint.parked) {
    const { step } = checkpoint.parked;
    throw notWaiting(
      checkpoint,
      options.event ?? { type: 'resume' },
      `is parked: its ${step} was in flight when its process died and may or may not have acted; settle it with reconcileRun (it happened, it did not happen, give up)`,
    );
  }
  if (checkpoint.status === 'done') {
    if (options.event !== undefined) {
      throw notWaiting(checkpoint, options.event, `has finished as ${checkpoint.state}`);
    }
    return checkpoint.snapshot.output as LoopOutcome<C>;
  }
  if (checkpoint.status === 'paused' && options.event === undefined) {
    return pausedRun<C>(runId, record.seq, loopView(checkpoint) as LoopView);
  }
  const { ledger } = checkpoint.snapshot.context as unknown as LoopContext;
  const event =
    options.event === undefined
      ? undefined
      : await checkAnswer(
          runId,
          options.event,
          checkpoint.pending,
          plan.config.answers,
          ledger.deadlineLeftMs,
        );
  restoreDeadline(checkpoint.snapshot, deadlineMs);
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
  checkClaim(runId, checkpoint.claim, Date.now(), claim.self, drivenHere(store, runId));
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

/**
 * A stored deadline in the monotonic time of the process that wrote it, converted to this one's
 * through each process's start (clock.ts), can be off by a wall-clock jump between the two: a run
 * restored here never gets more than its whole budget from now, so a jump back cannot extend it.
 */
export function restoreDeadline(snapshot: PersistedSnapshot, deadlineMs: number | null) {
  const context = snapshot.context as unknown as LoopContext;
  const { deadlineAt } = context.ledger;
  if (deadlineAt === null || deadlineMs === null) return;
  const latest = monotonicClock.now() + deadlineMs;
  if (deadlineAt <= latest) return;
  snapshot.context = { ...snapshot.context, ledger: { ...context.ledger, deadlineAt: latest } };
  for (const { snapshot: child } of Object.values(snapshot.children ?? {})) {
    const input = child?.input as { deadlineAt?: unknown } | undefined;
    if (child && typeof input?.deadlineAt === 'number')
      child.input = { ...input, deadlineAt: latest };
  }
}

/** Marks the step in flight at the checkpoint as resumed: it re-runs only if idempotent. */
export function markInFlightStep(snapshot: PersistedSnapshot) {
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
