import { assign, enqueueActions, type ParameterizedObject, type UnknownActorLogic } from 'xstate';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { PipelineContext, PipelinePause } from './pipelineContext.js';
import {
  approveReview,
  overrideCheck,
  recordAbort,
  rerunTargets,
  resetForRerun,
  skipFailed,
  type WaitingState,
} from './pipelineDecisions.js';
import type {
  PipelineEmitted,
  PipelineEvent,
  StageActorEvent,
  StageAnswer,
} from './pipelineEvents.js';
import * as read from './pipelineUpdates.js';
import type { ResolvedPlan } from './resolvePlan.js';
import { answerStage, answersPausedStage, pausedIn, recordStagePause } from './stagePause.js';

interface Args {
  context: PipelineContext;
  event: { type: string };
}
type Layer = { layer: number };
type Events = PipelineEvent | StageActorEvent;
type Params = ParameterizedObject['params'];
type Actor = { src: string; logic: UnknownActorLogic; id: string | undefined };

// enqueueActions and assign typed for this machine (setup's own helpers take no params).
const enqueued = <P extends Params>(
  collect: Parameters<
    typeof enqueueActions<
      PipelineContext,
      Events,
      P,
      Events,
      Actor,
      never,
      never,
      never,
      PipelineEmitted
    >
  >[0],
) =>
  enqueueActions<PipelineContext, Events, P, Events, Actor, never, never, never, PipelineEmitted>(
    collect,
  );
const assigned = <P extends Params>(
  assigner: (args: Args, params: P) => Partial<PipelineContext>,
) => assign<PipelineContext, Events, P, Events, Actor>(assigner);

const field = <T>(event: { type: string }, key: string) =>
  (event as unknown as Record<string, T | undefined>)[key];

/**
 * The pipeline machine's named guards and actions, closed over the resolved plan. Guards are
 * one-line adapters to the pure reads in pipelineUpdates.ts; actions assign their results.
 */
export function pipelineImplementations(plan: ResolvedPlan) {
  const systemIdOf = (stage: string) => `${plan.id}/stage:${stage}`;
  return {
    guards: {
      layerSettled: ({ context }: Args, { layer }: Layer) =>
        read.layerSettled(plan, context, layer),
      hasFailedStage: ({ context }: Args, { layer }: Layer) =>
        read.failedIn(plan, context, layer).length > 0,
      needsCrossCheck: ({ context }: Args, { layer }: Layer) =>
        read.needsCrossCheck(plan, context, layer),
      crossCheckRejected: ({ context }: Args, { layer }: Layer) =>
        read.crossCheckRejected(context, layer),
      awaitsReview: ({ context }: Args, { layer }: Layer) =>
        read.awaitingReview(plan, context, layer).length > 0,
      canRerun: ({ context, event }: Args, { layer, waiting }: Layer & { waiting: WaitingState }) =>
        rerunTargets(plan, context, layer, waiting, field<string>(event, 'stage')).length > 0,
      hasPausedStage: ({ context }: Args, { layer }: Layer) =>
        pausedIn(plan, context, layer).length > 0,
      pausesStageOf: ({ context, event }: Args, { layer }: Layer) => {
        const stage = field<string>(event, 'stage') ?? '';
        return plan.stages[stage]?.layer === layer && context.stages[stage]?.status === 'running';
      },
      answersPausedStage: ({ context, event }: Args, { layer }: Layer) =>
        answersPausedStage(plan, context, layer, event),
      canModify: ({ event }: Args, { layer }: Layer) =>
        plan.stages[field<string>(event, 'stage') ?? '']?.layer === layer,
    },
    actions: {
      startStages: enqueued(({ context, enqueue }, { layer }: Layer) => {
        const starts = read.planStarts(plan, context, layer);
        const { stages } = read.applyStarts(context, starts);
        enqueue.assign({ stages });
        for (const start of starts) {
          if (!('run' in start)) {
            enqueue.emit(finished(start.id, stages[start.id]));
            continue;
          }
          const { id, run, input, resume } = start;
          enqueue.spawnChild(`stage:${id}`, {
            id: `stage:${id}`,
            systemId: systemIdOf(id),
            input: resume ? { restore: resume.snapshot } : { input },
          });
          if (resume) enqueue.sendTo(`stage:${id}`, resume.answer);
          else enqueue.emit({ type: 'pipeline.stage.started', stage: id, layer, run, input });
        }
      }),
      recordOutcome: enqueued(({ context, event, enqueue }, { stage }: { stage: string }) => {
        const outcome = field<LoopOutcome>(event, 'output') as LoopOutcome;
        const update = read.recordOutcome(context, stage, outcome);
        enqueue.assign(update);
        enqueue.emit(finished(stage, update.stages[stage]));
      }),
      recordStagePause: enqueued(({ context, event, enqueue }) => {
        const stage = field<string>(event, 'stage') ?? '';
        enqueue.assign(recordStagePause(context, stage, field(event, 'snapshot')));
        enqueue.stopChild(`stage:${stage}`);
      }),
      answerStage: assigned(({ context, event }: Args) =>
        answerStage(context, event as unknown as StageAnswer),
      ),
      recordCrash: enqueued(({ context, event, enqueue }, { stage }: { stage: string }) => {
        const update = read.recordCrash(context, stage, field(event, 'error'));
        enqueue.assign(update);
        enqueue.emit(finished(stage, update.stages[stage]));
      }),
      recordCheck: assigned(({ context, event }: Args, { layer }: Layer) =>
        read.recordCheck(context, layer, field(event, 'output')),
      ),
      recordCheckError: assigned(({ context, event }: Args, { layer }: Layer) =>
        read.recordCheckError(context, layer, field(event, 'error')),
      ),
      pause: enqueued(
        ({ context, enqueue }, { layer, reason }: Layer & { reason: PipelinePause['reason'] }) => {
          const update = read.pauseFor(reason, plan, context, layer);
          enqueue.assign(update);
          enqueue.emit({ type: 'pipeline.paused', pause: update.pause });
        },
      ),
      skipFailed: assigned(({ context }: Args, { layer }: Layer) =>
        skipFailed(plan, context, layer),
      ),
      overrideCheck: assigned(({ context }: Args, { layer }: Layer) =>
        overrideCheck(context, layer),
      ),
      approveReview: assigned(({ context }: Args, { layer }: Layer) =>
        approveReview(plan, context, layer),
      ),
      rerun: assigned(
        ({ context, event }: Args, { layer, waiting }: Layer & { waiting: WaitingState }) =>
          resetForRerun(
            context,
            layer,
            rerunTargets(plan, context, layer, waiting, field<string>(event, 'stage')),
          ),
      ),
      modify: assigned(({ context, event }: Args, { layer }: Layer) =>
        resetForRerun(context, layer, [field<string>(event, 'stage') ?? ''], {
          value: field(event, 'input'),
        }),
      ),
      recordAbort: assigned(({ context, event }: Args) =>
        recordAbort(context, field<string>(event, 'reason')),
      ),
    },
  };
}

function finished(
  stage: string,
  report: PipelineContext['stages'][string] | undefined,
): PipelineEmitted {
  return {
    type: 'pipeline.stage.finished',
    stage,
    layer: report?.layer ?? 0,
    run: report?.runs ?? 0,
    status: report?.status ?? 'failed',
    ...(report?.loopStatus ? { loopStatus: report.loopStatus } : {}),
  };
}
