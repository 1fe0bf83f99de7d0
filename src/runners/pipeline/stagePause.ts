import type { AnyActorScope, AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import { loopView } from '../../core/chart/loopView.js';
import type { PipelineContext, PipelinePause, StageReport } from './pipelineContext.js';
import type { StageAnswer } from './pipelineEvents.js';
import type { ResolvedPlan } from './resolvePlan.js';

// A stage's loop may pause for a person (SPEC §7). The stage actor then tells the pipeline, which
// keeps the loop's persisted snapshot in its own context (so the pause persists with the record)
// and stops the actor; the answer restores the loop from that snapshot and hands it the event.

/** The answers a paused stage takes: its loop's own events. */
export const STAGE_ANSWER_TYPES = [
  'review.continue',
  'review.modify',
  'review.retry',
  'review.abort',
  'clarification.answer',
] as const satisfies readonly StageAnswer['type'][];

type Scope = AnyActorScope & { self: { _parent?: { send(event: EventObject): void } } };

/**
 * A stage's loop machine that starts from `input.restore` (a persisted snapshot) when given one,
 * and sends its parent `pipeline.stage.paused` with its persisted snapshot when it pauses.
 */
export function pausableStage(machine: AnyStateMachine, stage: string): AnyStateMachine {
  const logic = Object.create(machine) as AnyStateMachine;
  logic.getInitialSnapshot = (scope, input) => {
    const restore = (input as { restore?: unknown } | undefined)?.restore;
    return restore === undefined
      ? machine.getInitialSnapshot(scope, input)
      : machine.restoreSnapshot(restore as never, scope);
  };
  logic.transition = (snapshot, event, scope) => {
    const next = machine.transition(snapshot, event, scope);
    if (startsPause(snapshot, next)) {
      const self = (scope as Scope).self;
      scope.defer(() =>
        self._parent?.send({
          type: 'pipeline.stage.paused',
          stage,
          snapshot: scope.self.getPersistedSnapshot(),
        }),
      );
    }
    return next;
  };
  return logic;
}

function startsPause(before: AnyMachineSnapshot, after: AnyMachineSnapshot): boolean {
  if (after.status !== 'active' || !after.hasTag('waitsForHuman')) return false;
  return !before.hasTag('waitsForHuman') || before.value !== after.value;
}

const idsIn = (plan: ResolvedPlan, layer: number) => plan.layers[layer - 1] ?? [];

/** The stages of a layer whose loops wait for a person. */
export function pausedIn(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  return idsIn(plan, layer).filter((id) => context.stages[id]?.status === 'paused');
}

/** Records a stage loop's pause: its snapshot and question; the stage counts as settled. */
export function recordStagePause(context: PipelineContext, id: string, snapshot: unknown) {
  const stage = context.stages[id] as StageReport;
  const pending = loopView(snapshot)?.pending as PendingRequest;
  return {
    stages: {
      ...context.stages,
      [id]: { ...stage, status: 'paused' as const, paused: { snapshot, pending } },
    },
  };
}

/** Whether `event` answers a paused stage of the layer with an event its pause takes. */
export function answersPausedStage(
  plan: ResolvedPlan,
  context: PipelineContext,
  layer: number,
  event: { type: string; stage?: unknown },
): boolean {
  if (typeof event.stage !== 'string' || !pausedIn(plan, context, layer).includes(event.stage)) {
    return false;
  }
  const kind = context.stages[event.stage]?.paused?.pending?.kind;
  return kind === 'clarification'
    ? event.type === 'clarification.answer'
    : event.type.startsWith('review.');
}

/** Queues the answer for the stage: it restarts from its snapshot and takes the event. */
export function answerStage(context: PipelineContext, answer: StageAnswer) {
  const { stage: id, ...event } = answer;
  const stage = context.stages[id] as StageReport;
  const paused = stage.paused as NonNullable<StageReport['paused']>;
  return {
    stages: {
      ...context.stages,
      [id]: {
        ...stage,
        status: 'not_started' as const,
        paused: { ...paused, answer: event as LoopEvent },
      },
    },
    pause: undefined,
  };
}

/** The pause of a layer whose stages wait for a person: each stage's question. */
export function stagePauseOf(
  plan: ResolvedPlan,
  context: PipelineContext,
  layer: number,
): Extract<PipelinePause, { reason: 'stage_paused' }> {
  const pending: Record<string, PendingRequest> = {};
  for (const id of pausedIn(plan, context, layer)) {
    pending[id] = context.stages[id]?.paused?.pending as PendingRequest;
  }
  return stagePause(layer, pending);
}

/** The `stage_paused` pause of a layer, from its paused stages' questions. */
export function stagePause(
  layer: number,
  pending: Record<string, PendingRequest>,
): Extract<PipelinePause, { reason: 'stage_paused' }> {
  const stages = Object.keys(pending);
  const lines = stages.map((id) => {
    const request = pending[id];
    return request?.kind === 'clarification'
      ? `stage '${id}' asks: ${request.question} (answer with { type: 'clarification.answer', stage: '${id}', answer })`
      : `stage '${id}' waits for review (answer with { type: 'review.continue' | 'review.modify' | 'review.retry' | 'review.abort', stage: '${id}' })`;
  });
  return { reason: 'stage_paused', layer, stages, pending, message: lines.join('; ') };
}
