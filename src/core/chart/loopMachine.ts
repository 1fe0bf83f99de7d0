import { setup } from 'xstate';
import type { LoopSettings } from '../vocabulary/config.js';
import type { StepName } from '../vocabulary/failures.js';
import type { LoopOutcome } from '../vocabulary/outcome.js';
import type { LoopStatus } from '../vocabulary/statuses.js';
import { buildOutcome } from './buildOutcome.js';
import { loopActions, recordAbortWith } from './loopActions.js';
import { initialContext, type LoopContext } from './loopContext.js';
import type { LoopEvent } from './loopEvents.js';
import { loopGuards } from './loopGuards.js';
import { decide } from './loopRoutes.js';
import { loopRouteRows } from './loopRouteTable.js';
import { shapeOf } from './loopShape.js';
import { reachableStates } from './reachableStates.js';
import { type RunSteps, type StepInput, stepActors } from './stepActors.js';

/** The machine's input: `{ input }`, the first attempt's input. */
export interface LoopMachineInput<I = unknown> {
  input: I;
  /**
   * When the run began, in ms since the epoch (default: when the actor starts). An engine that
   * replays a workflow passes the time it journalled, so `deadlineMs` counts from the first start.
   */
  startedAt?: number;
  /** The run's steps (`plan.steps`, gated when checkpointed); default the chart's own. */
  steps?: RunSteps;
}

/**
 * The loop chart of resolved settings. Its step actors run the steps a run is started with
 * (`{ input, steps }`), else `own`; without `own` the chart depends on the id and the settings
 * alone, so runs of one shape can share it.
 */
export function buildLoopMachine<I, C>(id: string, settings: LoopSettings, own?: RunSteps) {
  // The routing rows (loopRouteTable.ts), tried top to bottom. Those of the default config
  // ({ attempt, validate }: 3 retries, no fallback, review or maxCost) are below; a test keeps them
  // true, and `compileLoop(config).routes` prints those of any config.
  //
  //   validating, on done:
  //     otherwise → routing
  //   routing:
  //     isMalformed            → terminate_with_partial
  //     isValid                → proceed
  //     isFundamental          → terminate_with_partial
  //     lacksDiagnostic        → terminate_with_partial
  //     isStalled              → stalled
  //     refineWouldPassCeiling → ceiling_stop
  //     hasRetriesLeft         → refining
  //     otherwise              → iteration_exhausted
  //   failed:
  //     stoppedByDeadline     → ceiling_stop
  //     isPolicyFailure       → policy_stop
  //     hasUnknownEffect      → unknown_outcome
  //     isPermanentFailure    → permanent_failure
  //     retryDelayTooLong     → retry_exhausted
  //     retryWouldPassCeiling → ceiling_stop
  //     transientRetryAllowed → waitingToRetry
  //     otherwise             → retry_exhausted
  //   waitingToRetry, on done:
  //     retryWaitHitDeadline → ceiling_stop
  //     failedInAttempt      → attempting
  //     failedInRefine       → refining
  //     otherwise            → validating
  //   attemptGate:
  //     ceilingReached → ceiling_stop
  //     otherwise      → attempting
  const routes = loopRouteRows(shapeOf(settings));
  const final = (status: LoopStatus) => ({
    type: 'final' as const,
    ...(status === 'fallback' ? {} : { entry: decide(status) }),
    output: ({ context }: { context: LoopContext }) => buildOutcome(status, context),
  });
  const stepInput = ({ context }: { context: LoopContext }) =>
    stepInputOf(context, context.ledger.previous);
  const onError = (step: StepName) => ({
    target: 'failed' as const,
    actions: { type: 'recordFailure' as const, params: { step } },
  });

  const machine = setup({
    types: {
      context: {} as LoopContext,
      events: {} as LoopEvent,
      input: {} as LoopMachineInput<I>,
      output: {} as LoopOutcome<C>,
    },
    actors: stepActors(settings, own),
    guards: loopGuards,
    actions: { ...loopActions, recordAbort: recordAbortWith(own) },
  }).createMachine({
    id,
    context: ({ input }) => initialContext(settings, input?.input, startTimeOf(input?.startedAt)),
    initial: 'attempting',
    on: { 'loop.abort': { target: '.aborted', actions: 'recordAbort' } },
    states: reachableStates(
      {
        attempting: {
          entry: 'startAttempt',
          invoke: {
            id: 'attempt',
            src: 'attempt',
            // for the attempt, the candidate that just failed is the previous one
            input: ({ context }) => stepInputOf(context, context.candidate),
            onDone: [
              { guard: 'isEmptyResult', target: 'empty', actions: 'acceptAttempt' },
              {
                guard: 'isClarificationRequest',
                target: 'awaitingClarification',
                actions: 'acceptAttempt',
              },
              { target: 'validating', actions: 'acceptCandidate' },
            ],
            onError: onError('attempt'),
          },
        },
        validating: {
          invoke: {
            id: 'validate',
            src: 'validate',
            input: stepInput,
            onDone: routes['validating, on done'],
            onError: onError('validate'),
          },
        },
        routing: { always: routes.routing },
        refining: {
          invoke: {
            id: 'refine',
            src: 'refine',
            input: stepInput,
            onDone: { target: 'attempting', actions: 'acceptRefinement' },
            onError: onError('refine'),
          },
        },
        fallingBack: {
          entry: 'startFallback',
          invoke: {
            id: 'fallback',
            src: 'fallback',
            input: stepInput,
            onDone: { target: 'fallback', actions: 'acceptFallback' },
            onError: onError('fallback'),
          },
        },
        failed: { always: routes.failed },
        waitingToRetry: {
          entry: { type: 'enterPhase', params: { phase: 'waitingToRetry' } },
          invoke: {
            id: 'retryDelay',
            src: 'retryDelay',
            input: ({ context }) => ({
              until: context.ledger.retryAt ?? 0,
              deadlineAt: context.ledger.deadlineAt,
            }),
            onDone: routes['waitingToRetry, on done'],
          },
        },
        attemptGate: { always: routes.attemptGate },
        awaitingClarification: {
          tags: ['waitsForHuman'],
          entry: ['pauseForClarification', 'freezeDeadline'],
          exit: 'thawDeadline',
          on: { 'clarification.answer': { target: 'attemptGate', actions: 'recordAnswer' } },
        },
        awaitingReview: {
          tags: ['waitsForHuman'],
          entry: 'freezeDeadline',
          exit: 'thawDeadline',
          on: {
            'review.continue': {
              target: 'routing',
              actions: { type: 'enterPhase', params: { phase: 'routing' } },
            },
            'review.modify': [
              { guard: 'modifiesCandidate', target: 'validating', actions: 'applyModification' },
              { target: 'attemptGate', actions: 'applyModification' },
            ],
            'review.retry': { target: 'attemptGate', actions: 'applyReviewRetry' },
            'review.abort': { target: 'aborted', actions: 'recordAbort' },
          },
        },
        proceed: final('proceed'),
        fallback: final('fallback'),
        terminate_with_partial: final('terminate_with_partial'),
        iteration_exhausted: final('iteration_exhausted'),
        stalled: final('stalled'),
        policy_stop: final('policy_stop'),
        permanent_failure: final('permanent_failure'),
        retry_exhausted: final('retry_exhausted'),
        unknown_outcome: final('unknown_outcome'),
        ceiling_stop: final('ceiling_stop'),
        budget_stop: final('budget_stop'),
        empty: final('empty'),
        aborted: final('aborted'),
      },
      ['attempting', 'aborted'],
    ),
    output: ({ event }) => event.output as LoopOutcome<C>,
  });
  Object.defineProperty(machine, BUILT, { value: true });
  return machine;
}

const BUILT = Symbol('loopchart.builtLoopMachine');

/** True for a machine `buildLoopMachine` built (not a `.provide()` copy of one). */
export function isBuiltLoopMachine(machine: object): boolean {
  return Object.hasOwn(machine, BUILT);
}

/** The machine `createLoopMachine` returns. */
export type LoopMachine<I = unknown, C = unknown> = ReturnType<typeof buildLoopMachine<I, C>>;

/** What a step actor is invoked with; `previous` is the candidate before the one it works on. */
function stepInputOf(context: LoopContext, previous: unknown): StepInput {
  return {
    input: context.input,
    feedback: context.feedback,
    previous,
    candidate: context.candidate,
    iteration: context.retryCount,
    attempt: context.attempts,
    key: context.key,
    answers: context.ledger.answers,
    deadlineAt: context.ledger.deadlineAt,
    cost: context.cost,
  };
}

/** A given start time if it is one, else undefined (the run then starts counting now). */
function startTimeOf(startedAt: unknown): number | undefined {
  return typeof startedAt === 'number' && Number.isFinite(startedAt) ? startedAt : undefined;
}
