import type { PipelineContext, StageReport } from './pipelineContext.js';
import { awaitingReview, crossCheckInput, failedIn } from './pipelineUpdates.js';
import type { ResolvedPlan } from './resolvePlan.js';

// What a person's answer to a pause does to the context (pure; wired in by the machine).

/** The waiting states of a layer, one per kind of pause. */
export type WaitingState = 'stageFailed' | 'crossCheckFailed' | 'awaitingReview';

/** `pipeline.continue` after failed stages: they are skipped, and so are dependants that need them. */
export function skipFailed(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  const stages = { ...context.stages };
  for (const id of failedIn(plan, context, layer)) {
    const stage = stages[id] as StageReport;
    stages[id] = {
      ...stage,
      status: 'skipped',
      note: `skipped by pipeline.continue after it ended as ${stage.loopStatus}`,
    };
  }
  return { stages, pause: undefined };
}

/** `pipeline.continue` after a failed cross-check: the layer goes on as it is. */
export function overrideCheck(context: PipelineContext, layer: number) {
  const check = context.checks[layer] ?? { overridden: false, runs: 0 };
  return {
    checks: { ...context.checks, [layer]: { ...check, overridden: true } },
    pause: undefined,
  };
}

/** `pipeline.continue` at a checkpoint: the stages under review are approved. */
export function approveReview(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  const stages = { ...context.stages };
  for (const id of awaitingReview(plan, context, layer)) {
    stages[id] = { ...(stages[id] as StageReport), reviewed: true };
  }
  return { stages, pause: undefined };
}

/**
 * The stages a `pipeline.retry` runs again: the named one if it belongs to the paused layer,
 * otherwise the ones the pause is about. Empty when the request cannot apply.
 */
export function rerunTargets(
  plan: ResolvedPlan,
  context: PipelineContext,
  layer: number,
  waiting: WaitingState,
  stage: string | undefined,
): string[] {
  if (stage !== undefined) return plan.stages[stage]?.layer === layer ? [stage] : [];
  if (waiting === 'stageFailed') return failedIn(plan, context, layer);
  if (waiting === 'crossCheckFailed') return crossCheckInput(plan, context, layer).stages;
  return awaitingReview(plan, context, layer);
}

/**
 * Resets stages of the paused layer so they run again (with `modified` as the new input of a
 * `pipeline.modify`). The layer's cross-check is cleared: the new results are checked afresh.
 */
export function resetForRerun(
  context: PipelineContext,
  layer: number,
  ids: readonly string[],
  modified?: { value: unknown },
) {
  const stages = { ...context.stages };
  for (const id of ids) {
    const { note: _, reviewed: __, ...stage } = stages[id] as StageReport;
    stages[id] = {
      ...stage,
      status: 'not_started',
      ...(modified ? { modifiedInput: modified } : {}),
    };
  }
  const { [layer]: _, ...checks } = context.checks;
  return { stages, checks, pause: undefined };
}

/** `pipeline.abort`: running stages are marked aborted (their loops are stopped with the pipeline). */
export function recordAbort(context: PipelineContext, reason: string | undefined) {
  const abortReason = reason ?? 'the pipeline was aborted';
  const stages = { ...context.stages };
  for (const [id, stage] of Object.entries(stages)) {
    if (stage.status === 'running') {
      stages[id] = { ...stage, status: 'aborted', note: `aborted while running: ${abortReason}` };
    } else if (stage.status === 'paused') {
      const { paused: _, ...rest } = stage;
      stages[id] = { ...rest, status: 'aborted', note: `aborted while paused: ${abortReason}` };
    }
  }
  return { stages, abortReason, pause: undefined };
}
