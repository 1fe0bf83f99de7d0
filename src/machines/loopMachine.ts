import { assign, setup } from 'xstate';
import { type LoopConfig, type LoopSettings, resolveConfig } from '../config.js';
import { freezeDeadline, hitDeadline, thawDeadline } from '../deadline/deadline.js';
import type { StepName } from '../failures.js';
import type { LoopOutcome } from '../outcome.js';
import type { LoopStatus, TraceDecision } from '../statuses.js';
import { buildOutcome } from './buildOutcome.js';
import { initialContext, type LoopContext } from './loopContext.js';
import type { LoopEvent } from './loopEvents.js';
import { loopGuards } from './loopGuards.js';
import { decide, failureRoutes, verdictRoutes } from './loopRoutes.js';
import { shapeOf, when } from './loopShape.js';
import * as update from './loopUpdates.js';
import { type StepInput, stepActors } from './stepActors.js';

/** The machine's input: `{ input }`, the first attempt's input. */
export interface LoopMachineInput<I = unknown> {
  input: I;
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
    partial: context.candidate,
    error: context.feedback,
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
    actors: stepActors(config, settings),
    guards: loopGuards,
    actions: {
      enterPhase: assign(({ context }, params: { phase: LoopContext['phase'] }) =>
        update.enterPhase(context, params.phase),
      ),
      startAttempt: assign(({ context }) => update.startAttempt(context)),
      startFallback: assign(({ context }) => update.startFallback(context)),
      acceptAttempt: assign(({ context, event }) => update.acceptAttempt(context, outputOf(event))),
      acceptCandidate: assign(({ context, event }) =>
        update.acceptAttempt(context, outputOf(event), 'validating'),
      ),
      acceptVerdict: assign(({ context, event }) => update.acceptVerdict(context, outputOf(event))),
      acceptRefinement: assign(({ context, event }) =>
        update.acceptRefinement(context, outputOf(event)),
      ),
      acceptFallback: assign(({ context, event }) =>
        update.acceptFallback(context, outputOf(event)),
      ),
      recordFailure: assign(({ context, event }, params: { step: StepName }) =>
        update.recordFailure(context, params.step, (event as { error?: unknown }).error),
      ),
      recordDecision: assign(({ context }, params: { decision: TraceDecision }) =>
        update.recordDecision(context, params.decision),
      ),
      countRetry: assign(({ context }) => update.countRetry(context)),
      scheduleRetry: assign(({ context }) => update.scheduleRetry(context)),
      pauseForReview: assign(
        ({ context }, params: { reason: 'beforeProceed' | 'afterFailedValidation' }) =>
          update.pauseForReview(context, params.reason),
      ),
      pauseForClarification: assign(({ context }) => update.pauseForClarification(context)),
      recordAnswer: assign(({ context, event }) =>
        update.recordAnswer(
          context,
          event.type === 'clarification.answer' ? event.answer : undefined,
        ),
      ),
      applyModification: assign(({ context, event }) =>
        update.applyModification(context, event.type === 'review.modify' ? event : {}),
      ),
      applyReviewRetry: assign(({ event }) =>
        update.applyReviewRetry(event.type === 'review.retry' ? event.feedback : undefined),
      ),
      freezeDeadline: assign(({ context }) => ({ ledger: freezeDeadline(context.ledger) })),
      thawDeadline: assign(({ context }) => ({ ledger: thawDeadline(context.ledger) })),
      recordDeadline: assign(({ context }) => ({
        ledger: hitDeadline(context.ledger, context.failure),
      })),
      recordAbort: assign(({ context, event }) =>
        update.recordAbort(context, 'reason' in event ? event.reason : undefined),
      ),
    },
  }).createMachine({
    id: config.id ?? 'loop',
    context: ({ input }) => initialContext(settings, input?.input),
    initial: 'attempting',
    on: { 'loop.abort': { target: '.aborted', actions: 'recordAbort' } },
    states: {
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
          onDone: [
            ...when(shape.review.beforeProceed, {
              guard: 'reviewBeforeProceed' as const,
              target: 'awaitingReview' as const,
              actions: [
                'acceptVerdict' as const,
                { type: 'pauseForReview' as const, params: { reason: 'beforeProceed' as const } },
              ],
            }),
            ...when(shape.review.afterFailedValidation, {
              guard: 'reviewAfterFailedValidation' as const,
              target: 'awaitingReview' as const,
              actions: [
                'acceptVerdict' as const,
                {
                  type: 'pauseForReview' as const,
                  params: { reason: 'afterFailedValidation' as const },
                },
              ],
            }),
            { target: 'routing', actions: 'acceptVerdict' },
          ],
          onError: onError('validate'),
        },
      },
      routing: {
        always: verdictRoutes(shape),
      },
      ...(shape.canRefine && {
        refining: {
          invoke: {
            id: 'refine',
            src: 'refine',
            input: stepInput,
            onDone: { target: 'attempting', actions: 'acceptRefinement' },
            onError: onError('refine'),
          },
        },
      }),
      ...(shape.canFallBack && {
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
      }),
      failed: {
        always: failureRoutes(shape),
      },
      waitingToRetry: {
        entry: { type: 'enterPhase', params: { phase: 'waitingToRetry' } },
        invoke: {
          id: 'retryDelay',
          src: 'retryDelay',
          input: ({ context }) => ({
            until: context.ledger.retryAt ?? 0,
            deadlineAt: context.ledger.deadlineAt,
          }),
          onDone: [
            { guard: 'retryWaitHitDeadline', target: 'ceiling_stop', actions: 'recordDeadline' },
            ...when(shape.canReattempt, {
              guard: 'failedInAttempt' as const,
              target: 'attempting' as const,
            }),
            ...when(shape.canRefine, {
              guard: 'failedInRefine' as const,
              target: 'refining' as const,
              actions: { type: 'enterPhase' as const, params: { phase: 'refining' as const } },
            }),
            {
              target: 'validating',
              actions: { type: 'enterPhase', params: { phase: 'validating' } },
            },
          ],
        },
      },
      attemptGate: {
        always: shape.canReattempt
          ? [
              { guard: 'ceilingReached', target: 'ceiling_stop' },
              ...when(shape.hasBudget, {
                guard: 'costBudgetSpent' as const,
                target: 'budget_stop' as const,
              }),
              { target: 'attempting' },
            ]
          : [{ target: 'ceiling_stop' }],
      },
      awaitingClarification: {
        tags: ['waitsForHuman'],
        entry: ['pauseForClarification', 'freezeDeadline'],
        exit: 'thawDeadline',
        on: { 'clarification.answer': { target: 'attemptGate', actions: 'recordAnswer' } },
      },
      ...(shape.hasReview && {
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
      }),
      proceed: final('proceed'),
      ...(shape.canFallBack && { fallback: final('fallback') }),
      terminate_with_partial: final('terminate_with_partial'),
      ...(shape.canExhaust && { iteration_exhausted: final('iteration_exhausted') }),
      ...(shape.canStall && { stalled: final('stalled') }),
      policy_stop: final('policy_stop'),
      permanent_failure: final('permanent_failure'),
      retry_exhausted: final('retry_exhausted'),
      ...(shape.hasNonIdempotentStep && { unknown_outcome: final('unknown_outcome') }),
      ceiling_stop: final('ceiling_stop'),
      ...(shape.hasBudget && { budget_stop: final('budget_stop') }),
      empty: final('empty'),
      aborted: final('aborted'),
    },
    output: ({ event }) => event.output as LoopOutcome<C>,
  });
  built.set(machine, settings);
  return machine;
}

const built = new WeakMap<object, LoopSettings>();

/** The settings a machine was built with by `createLoopMachine` (not for `.provide()` copies). */
export function settingsOfLoop(machine: object): LoopSettings | undefined {
  return built.get(machine);
}

function outputOf(event: { type: string }): unknown {
  return (event as { output?: unknown }).output;
}

/** The machine `createLoopMachine` returns. */
export type LoopMachine<I = unknown, C = unknown> = ReturnType<typeof createLoopMachine<I, C>>;
