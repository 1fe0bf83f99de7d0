import { setup, type UnknownActorLogic } from 'xstate';
import { chartWithSteps, gatedSteps } from '../../core/chart/compileLoop.js';
import type { StepGate } from '../../core/chart/stepGate.js';
import { crossCheckActor } from './crossCheckActor.js';
import {
  initialPipelineContext,
  type PipelineContext,
  type PipelineMachineInput,
  type PipelinePause,
} from './pipelineContext.js';
import type { WaitingState } from './pipelineDecisions.js';
import type { PipelineEmitted, PipelineEvent, StageActorEvent } from './pipelineEvents.js';
import { pipelineImplementations } from './pipelineImplementations.js';
import { buildPipelineOutcome, type PipelineOutcome } from './pipelineOutcome.js';
import type { PipelinePlan } from './pipelinePlan.js';
import { crossCheckInput } from './pipelineUpdates.js';
import { type ResolvedPlan, resolvePlan } from './resolvePlan.js';
import { pausableStage, STAGE_ANSWER_TYPES } from './stagePause.js';

const when = <T extends unknown[]>(condition: boolean, ...items: T): T | [] =>
  condition ? items : [];

const PAUSES: Record<WaitingState, PipelinePause['reason']> = {
  stageFailed: 'stage_failed',
  crossCheckFailed: 'cross_check_failed',
  awaitingReview: 'checkpoint',
};
const CONTINUE = {
  stageFailed: 'skipFailed',
  crossCheckFailed: 'overrideCheck',
  awaitingReview: 'approveReview',
} as const;

/**
 * Builds the statechart of a pipeline: one state per dependency layer (`layer1`, `layer2`, …, in
 * Kahn's order), in which the layer's stages run together as spawned loop actors `stage:<id>`.
 * A bad plan (cycle, unknown or duplicate id, bad loop config) throws `LoopConfigError` here.
 * @example const machine = createPipelineMachine({ stages: [{ id: 'find', loop }, { id: 'sum', dependsOn: ['find'], loop }] });
 *          const actor = createActor(machine, { input: { input: 'Q3 invoices' } }).start();
 */
export function createPipelineMachine(plan: PipelinePlan) {
  return pipelineMachineOf(resolvePlan(plan));
}

/**
 * The pipeline machine of an already validated plan. With a `gate` (a checkpointed run) every
 * stage's steps wait there for the save before them; its stage charts are then built for the run.
 */
export function pipelineMachineOf(resolved: ResolvedPlan, gate?: StepGate) {
  const actors: Record<string, UnknownActorLogic> = Object.fromEntries(
    Object.values(resolved.stages).map(({ id, plan }) => [
      `stage:${id}`,
      pausableStage(gate ? chartWithSteps(plan, gatedSteps(plan, gate)) : plan.chart, id),
    ]),
  );
  actors.crossCheck = crossCheckActor(resolved.crossCheck, resolved.crossCheckTimeoutMs);
  const layerIds = resolved.layers.map((_, index) => `layer${index + 1}`);

  return setup({
    types: {
      context: {} as PipelineContext,
      events: {} as PipelineEvent | StageActorEvent,
      input: {} as PipelineMachineInput,
      output: {} as PipelineOutcome,
      emitted: {} as PipelineEmitted,
    },
    actors,
    ...pipelineImplementations(resolved),
  }).createMachine({
    id: resolved.id,
    context: ({ input }) => initialPipelineContext(resolved, input ?? {}),
    initial: layerIds[0] as string,
    on: { 'pipeline.abort': { target: '.aborted', actions: 'recordAbort' } },
    states: {
      ...Object.fromEntries(
        resolved.layers.map((ids, index) => [
          layerIds[index] as string,
          layerState(resolved, index + 1, ids, layerIds[index + 1] ?? 'completed'),
        ]),
      ),
      completed: {
        type: 'final',
        output: ({ context }) => buildPipelineOutcome('completed', context),
      },
      aborted: {
        type: 'final',
        output: ({ context }) => buildPipelineOutcome('aborted', context),
      },
    },
    output: ({ event }) => event.output as PipelineOutcome,
  });
}

/** A layer: run its stages, then check failures, the cross-check and checkpoints, in that order. */
function layerState(plan: ResolvedPlan, layer: number, ids: readonly string[], next: string) {
  const params = { layer };
  const withCheck = plan.crossCheck !== undefined && ids.length >= 2;
  const withReview = ids.some((id) => plan.stages[id]?.checkpoint);
  const afterCheck = [
    ...when(withCheck, {
      guard: { type: 'crossCheckRejected' as const, params },
      target: 'crossCheckFailed' as const,
    }),
    ...when(withReview, {
      guard: { type: 'awaitsReview' as const, params },
      target: 'awaitingReview' as const,
    }),
    { target: 'done' as const },
  ];
  const waiting = (state: WaitingState) => ({
    tags: ['waitsForHuman'],
    entry: { type: 'pause' as const, params: { layer, reason: PAUSES[state] } },
    on: {
      'pipeline.continue': { target: 'settling', actions: { type: CONTINUE[state], params } },
      'pipeline.retry': {
        guard: { type: 'canRerun' as const, params: { layer, waiting: state } },
        target: 'running',
        actions: { type: 'rerun' as const, params: { layer, waiting: state } },
      },
      'pipeline.modify': {
        guard: { type: 'canModify' as const, params },
        target: 'running',
        actions: { type: 'modify' as const, params },
      },
    },
  });
  return {
    description: `layer ${layer}: ${ids.join(', ')}`,
    initial: 'running',
    states: {
      running: {
        entry: { type: 'startStages' as const, params },
        on: {
          ...Object.fromEntries(
            ids.flatMap((stage) => [
              [
                `xstate.done.actor.stage:${stage}`,
                { actions: { type: 'recordOutcome', params: { stage } } },
              ],
              [
                `xstate.error.actor.stage:${stage}`,
                { actions: { type: 'recordCrash', params: { stage } } },
              ],
            ]),
          ),
          'pipeline.stage.paused': {
            guard: { type: 'pausesStageOf' as const, params },
            actions: 'recordStagePause' as const,
          },
        },
        always: { guard: { type: 'layerSettled' as const, params }, target: 'settling' },
      },
      settling: {
        always: [
          { guard: { type: 'hasPausedStage' as const, params }, target: 'stagePaused' },
          { guard: { type: 'hasFailedStage' as const, params }, target: 'stageFailed' },
          ...when(withCheck, {
            guard: { type: 'needsCrossCheck' as const, params },
            target: 'crossChecking' as const,
          }),
          ...afterCheck,
        ],
      },
      ...(withCheck && {
        crossChecking: {
          invoke: {
            id: 'crossCheck',
            src: 'crossCheck' as const,
            input: ({ context }: { context: PipelineContext }) =>
              crossCheckInput(plan, context, layer),
            onDone: { target: 'checked', actions: { type: 'recordCheck' as const, params } },
            onError: { target: 'checked', actions: { type: 'recordCheckError' as const, params } },
          },
        },
        checked: { always: afterCheck },
        crossCheckFailed: waiting('crossCheckFailed'),
      }),
      stageFailed: waiting('stageFailed'),
      stagePaused: {
        tags: ['waitsForHuman'],
        entry: { type: 'pause' as const, params: { layer, reason: 'stage_paused' as const } },
        on: Object.fromEntries(
          STAGE_ANSWER_TYPES.map((type) => [
            type,
            {
              guard: { type: 'answersPausedStage' as const, params },
              target: 'running' as const,
              actions: 'answerStage' as const,
            },
          ]),
        ),
      },
      ...(withReview && { awaitingReview: waiting('awaitingReview') }),
      done: { type: 'final' as const },
    },
    onDone: next,
  };
}

/** The machine `createPipelineMachine` returns. */
export type PipelineMachine = ReturnType<typeof pipelineMachineOf>;
