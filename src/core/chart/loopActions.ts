import { type AnyActorRef, assign } from 'xstate';
import { monotonicClock } from '../vocabulary/clock.js';
import type { StepName } from '../vocabulary/failures.js';
import type { TraceDecision } from '../vocabulary/statuses.js';
import { freezeDeadline, hitDeadline, thawDeadline } from './deadline.js';
import type { LoopContext } from './loopContext.js';
import type { LoopEvent } from './loopEvents.js';
import * as update from './loopUpdates.js';
import { givenSteps, type RunSteps } from './stepActors.js';

interface Args {
  context: LoopContext;
  event: LoopEvent;
  self: AnyActorRef;
}

const outputOf = (event: { type: string }): unknown => (event as { output?: unknown }).output;

// typed against the machine's context and events, so setup() takes them as they are
const act = <P extends Record<string, unknown> | undefined = undefined>(
  update: (args: Args, params: P) => Partial<LoopContext>,
) => assign<LoopContext, LoopEvent, P, LoopEvent, never>(update);

/** The loop machine's actions, by name: each an `assign` of one pure update in loopUpdates.ts. */
export const loopActions = {
  enterPhase: act(({ context }: Args, params: { phase: LoopContext['phase'] }) =>
    update.enterPhase(context, params.phase),
  ),
  startAttempt: act(({ context }: Args) => update.startAttempt(context)),
  startFallback: act(({ context }: Args) => update.startFallback(context)),
  acceptAttempt: act(({ context, event }: Args) => update.acceptAttempt(context, outputOf(event))),
  acceptCandidate: act(({ context, event }: Args) =>
    update.acceptAttempt(context, outputOf(event), 'validating'),
  ),
  acceptVerdict: act(({ context, event }: Args) => update.acceptVerdict(context, outputOf(event))),
  acceptRefinement: act(({ context, event }: Args) =>
    update.acceptRefinement(context, outputOf(event)),
  ),
  acceptFallback: act(({ context, event }: Args) =>
    update.acceptFallback(context, outputOf(event)),
  ),
  recordFailure: act(({ context, event }: Args, params: { step: StepName }) =>
    update.recordFailure(context, params.step, (event as { error?: unknown }).error),
  ),
  recordDecision: act(({ context }: Args, params: { decision: TraceDecision }) =>
    update.recordDecision(context, params.decision),
  ),
  countRetry: act(({ context }: Args) => update.countRetry(context)),
  // the retry wait ends on the run's clock, the one its wait actor and its deadline read
  scheduleRetry: act(({ context, self }: Args) =>
    update.scheduleRetry(context, (givenSteps(self)?.clock ?? monotonicClock).now()),
  ),
  pauseForReview: act(
    ({ context }: Args, params: { reason: 'beforeProceed' | 'afterFailedValidation' }) =>
      update.pauseForReview(context, params.reason),
  ),
  pauseForClarification: act(({ context }: Args) => update.pauseForClarification(context)),
  recordAnswer: act(({ context, event }: Args) =>
    update.recordAnswer(context, event.type === 'clarification.answer' ? event.answer : undefined),
  ),
  applyModification: act(({ context, event }: Args) =>
    update.applyModification(context, event.type === 'review.modify' ? event : {}),
  ),
  applyReviewRetry: act(({ event }: Args) =>
    update.applyReviewRetry(event.type === 'review.retry' ? event.feedback : undefined),
  ),
  freezeDeadline: act(({ context }: Args) => ({ ledger: freezeDeadline(context.ledger) })),
  thawDeadline: act(({ context }: Args) => ({ ledger: thawDeadline(context.ledger) })),
  recordDeadline: act(({ context }: Args) => ({
    ledger: hitDeadline(context.ledger, context.failure),
    // an attempt the deadline stopped before it began was never invoked
    ...(context.failure?.notBegun && context.failure.step === 'attempt'
      ? { attempts: context.attempts - 1 }
      : {}),
  })),
  // maxCost's reservation refused the step before its call: an attempt never made is not counted
  uncountRefusedStep: act(({ context }: Args) =>
    context.failure?.step === 'attempt' ? { attempts: context.attempts - 1 } : {},
  ),
};

/** `recordAbort` of a chart whose own steps are `own` (a run started with steps has its own gate). */
export const recordAbortWith = (own: RunSteps | undefined) =>
  act(({ context, event, self }: Args) => ({
    ...update.recordAbort(context, 'reason' in event ? event.reason : undefined),
    // an attempt aborted while it waited for its checkpoint to be saved was never invoked
    ...(context.phase === 'attempting' &&
    (givenSteps(self) ?? own)?.gate?.isWaiting(context.attempts)
      ? { attempts: context.attempts - 1 }
      : {}),
  }));

/**
 * The pause's deadline actions for an engine that replays: the freeze keeps an overrun (a replay
 * reaches the pause late), and the thaw counts from `thawAt()`, the engine's time for the answer
 * (when it reached the pause plus the pause's journalled length), so the run keeps the time left.
 */
export const replayedPauseDeadline = (thawAt: () => number) => ({
  freezeDeadline: act(({ context }: Args) => ({
    ledger: freezeDeadline(context.ledger, monotonicClock.now(), Number.NEGATIVE_INFINITY),
  })),
  thawDeadline: act(({ context }: Args) => ({ ledger: thawDeadline(context.ledger, thawAt()) })),
});
