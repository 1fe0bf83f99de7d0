import { setup } from 'xstate';
import { type LoopConfig, type LoopSettings, resolveConfig } from '../config.js';
import type { StepName } from '../failures.js';
import { FAILURE_ROWS, reachable, VERDICT_ROWS } from '../guards/decisionTable.js';
import type { LoopOutcome } from '../outcome.js';
import type { LoopStatus } from '../statuses.js';
import { buildOutcome } from './buildOutcome.js';
import { loopActions } from './loopActions.js';
import { initialContext, type LoopContext } from './loopContext.js';
import type { LoopEvent } from './loopEvents.js';
import { loopGuards } from './loopGuards.js';
import { ATTEMPT_GATE_ROWS, decide, RETRY_ROWS, VERDICT_ARRIVAL_ROWS } from './loopRoutes.js';
import { shapeOf } from './loopShape.js';
import { reachableStates } from './reachableStates.js';
import { runStepsOf, type StepInput, type StepsOf, stepActors } from './stepActors.js';

/** The machine's input: `{ input }`, the first attempt's input. */
export interface LoopMachineInput<I = unknown> {
  input: I;
  /**
   * When the run began, in ms since the epoch (default: when the actor starts). An engine that
   * replays a workflow passes the time it journalled, so `deadlineMs` counts from the first start.
   */
  startedAt?: number;
}

/**
 * Builds the loop statechart for a config. Bad config throws `LoopConfigError` here. The machine
 * holds exactly the states and branches the config can reach (no fallback state without a
 * fallback, no budget branches without `maxCost`), so path tests can cover all of it.
 * @example const machine = createLoopMachine({ attempt, validate, maxRetries: 3 });
 *          const outcome = await toPromise(createActor(machine, { input: { input: 'draft' } }).start());
 */
export function createLoopMachine<I = unknown, C = unknown>(config: LoopConfig<I, C>) {
  const settings = resolveConfig(config);
  const steps = runStepsOf(config);
  const machine = buildLoopMachine<I, C>(config.id ?? 'loop', settings, () => steps);
  built.add(machine);
  return machine;
}

/**
 * The loop chart of resolved settings; its step actors find the run's functions with `stepsOf`.
 * The chart depends on the id and the settings alone, so runs of one shape can share it.
 */
export function buildLoopMachine<I, C>(id: string, settings: LoopSettings, stepsOf: StepsOf) {
  const shape = shapeOf(settings);
  const final = (status: LoopStatus) => ({
    type: 'final' as const,
    ...(status === 'fallback' ? {} : { entry: decide(status) }),
    output: ({ context }: { context: LoopContext }) => buildOutcome(status, context),
  });
  const stepInput = ({ context }: { context: LoopContext }): StepInput => ({
    input: context.input,
    feedback: context.feedback,
    previous: context.ledger.previous,
    candidate: context.candidate,
    iteration: context.retryCount,
    attempt: context.attempts,
    key: context.key,
    answers: context.ledger.answers,
    deadlineAt: context.ledger.deadlineAt,
  });
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
    actors: stepActors(settings, stepsOf),
    guards: loopGuards,
    actions: loopActions,
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
            input: ({ context }) => ({ ...stepInput({ context }), previous: context.candidate }),
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
            onDone: reachable(VERDICT_ARRIVAL_ROWS, shape),
            onError: onError('validate'),
          },
        },
        routing: { always: reachable(VERDICT_ROWS, shape) },
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
        failed: { always: reachable(FAILURE_ROWS, shape) },
        waitingToRetry: {
          entry: { type: 'enterPhase', params: { phase: 'waitingToRetry' } },
          invoke: {
            id: 'retryDelay',
            src: 'retryDelay',
            input: ({ context }) => ({
              until: context.ledger.retryAt ?? 0,
              deadlineAt: context.ledger.deadlineAt,
            }),
            onDone: reachable(RETRY_ROWS, shape),
          },
        },
        attemptGate: { always: reachable(ATTEMPT_GATE_ROWS, shape) },
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
  return machine;
}

const built = new WeakSet<object>();

/** True for a machine `createLoopMachine` built (not a `.provide()` copy of one). */
export function isBuiltLoopMachine(machine: object): boolean {
  return built.has(machine);
}

/** The machine `createLoopMachine` returns. */
export type LoopMachine<I = unknown, C = unknown> = ReturnType<typeof createLoopMachine<I, C>>;

/** A given start time if it is one, else undefined (the run then starts counting now). */
function startTimeOf(startedAt: unknown): number | undefined {
  return typeof startedAt === 'number' && Number.isFinite(startedAt) ? startedAt : undefined;
}
