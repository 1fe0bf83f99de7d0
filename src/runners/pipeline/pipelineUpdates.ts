import { describeValue } from '../../core/vocabulary/describeValue.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { parseVerdict } from '../../core/vocabulary/validation.js';
import {
  failedRun,
  type PipelineContext,
  type PipelinePause,
  type StagePause,
  type StageReport,
} from './pipelineContext.js';
import type { ResolvedPlan, ResolvedStage } from './resolvePlan.js';
import { stagePauseOf } from './stagePause.js';

// Pure reads and updates of the pipeline context; the machine wires them into guards and assigns.

/** The candidate of an ok outcome that produced one (`proceed`, `fallback`); `empty` has none. */
export function resultOf(outcome: LoopOutcome | undefined): { value: unknown } | undefined {
  return outcome && (outcome.status === 'proceed' || outcome.status === 'fallback')
    ? { value: outcome.candidate }
    : undefined;
}

/** The results of the given stages that succeeded with a candidate, by id. */
export function resultsOf(context: PipelineContext, ids: readonly string[]) {
  const results: Record<string, unknown> = {};
  for (const id of ids) {
    const stage = context.stages[id];
    const result = stage?.status === 'succeeded' ? resultOf(stage.outcome) : undefined;
    if (result) results[id] = result.value;
  }
  return results;
}

const idsIn = (plan: ResolvedPlan, layer: number) => plan.layers[layer - 1] ?? [];
const withStatus = (context: PipelineContext, ids: readonly string[], ...statuses: string[]) =>
  ids.filter((id) => statuses.includes(context.stages[id]?.status ?? ''));

/** What starting a stage of a layer comes to: a run with its input, a skip, or a failure. */
export type StageStart =
  | { id: string; run: number; input: unknown; resume?: Required<StagePause> }
  | { id: string; skip: string }
  | { id: string; fail: string };

/** Decides, for each stage of the layer that has not started, whether and with what it runs. */
export function planStarts(
  plan: ResolvedPlan,
  context: PipelineContext,
  layer: number,
): StageStart[] {
  return withStatus(context, idsIn(plan, layer), 'not_started').map((id) => {
    const stage = plan.stages[id] as ResolvedStage;
    const report = context.stages[id] as StageReport;
    if (report.paused?.answer) {
      return {
        id,
        run: report.runs,
        input: report.input,
        resume: report.paused as Required<StagePause>,
      };
    }
    if (report.modifiedInput) {
      return { id, run: report.runs + 1, input: report.modifiedInput.value };
    }
    const skipped = withStatus(context, stage.dependsOn, 'skipped');
    if (skipped.length > 0 && stage.whenDependencySkipped === 'skip') {
      return { id, skip: `skipped because its dependency ${quoteList(skipped)} was skipped` };
    }
    try {
      return { id, run: report.runs + 1, input: buildInput(stage, context) };
    } catch (error) {
      return { id, fail: `the input builder of stage '${id}' threw: ${messageOf(error)}` };
    }
  });
}

function buildInput(stage: ResolvedStage, context: PipelineContext): unknown {
  if (!stage.input) {
    return stage.dependsOn.length === 0 ? context.input : resultsOf(context, stage.dependsOn);
  }
  const outcomes: Record<string, LoopOutcome> = {};
  for (const id of withStatus(context, stage.dependsOn, 'succeeded')) {
    const outcome = context.stages[id]?.outcome;
    if (outcome) outcomes[id] = outcome;
  }
  return stage.input(resultsOf(context, stage.dependsOn), { input: context.input, outcomes });
}

/** The stage reports after `planStarts` was acted on. */
export function applyStarts(context: PipelineContext, starts: StageStart[]) {
  const stages = { ...context.stages };
  for (const start of starts) {
    const stage = stages[start.id] as StageReport;
    const { modifiedInput: _, paused: __, ...rest } = stage;
    if ('run' in start) {
      stages[start.id] = { ...rest, status: 'running', runs: start.run, input: start.input };
    } else if ('skip' in start) {
      stages[start.id] = { ...rest, status: 'skipped', note: start.skip };
    } else {
      stages[start.id] = {
        ...rest,
        status: 'failed',
        runs: stage.runs + 1,
        ...failedRun('permanent_failure', start.fail),
      };
    }
  }
  return { stages };
}

/** Records the loop outcome of a stage's run. */
export function recordOutcome(context: PipelineContext, id: string, outcome: LoopOutcome) {
  const stage = context.stages[id] as StageReport;
  const { note: _, ...rest } = stage;
  const report: StageReport = {
    ...rest,
    status: outcome.ok ? 'succeeded' : 'failed',
    iterations: stage.iterations + outcome.iterations,
    attempts: stage.attempts + outcome.attempts,
    cost: stage.cost + outcome.cost,
    loopStatus: outcome.status,
    outcome,
  };
  return { stages: { ...context.stages, [id]: report } };
}

/** Records a stage whose loop actor itself failed (a bug, not a step's failure). */
export function recordCrash(context: PipelineContext, id: string, error: unknown) {
  const stage = context.stages[id] as StageReport;
  const message = `the loop of stage '${id}' crashed: ${messageOf(error)}`;
  return {
    stages: {
      ...context.stages,
      [id]: { ...stage, status: 'failed' as const, ...failedRun('permanent_failure', message) },
    },
  };
}

export function layerSettled(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  return withStatus(context, idsIn(plan, layer), 'not_started', 'running').length === 0;
}

export function failedIn(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  return withStatus(context, idsIn(plan, layer), 'failed');
}

/** The layer's results for the cross-check; it runs when at least two stages succeeded. */
export function crossCheckInput(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  const stages = withStatus(context, idsIn(plan, layer), 'succeeded');
  return { layer, stages, results: resultsOf(context, stages), input: context.input };
}

export function needsCrossCheck(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  const check = context.checks[layer];
  const pending = !check || (check.verdict === undefined && check.error === undefined);
  return pending && crossCheckInput(plan, context, layer).stages.length >= 2;
}

export function crossCheckRejected(context: PipelineContext, layer: number) {
  const check = context.checks[layer];
  if (!check || check.overridden) return false;
  return check.error !== undefined || (check.verdict !== undefined && !check.verdict.valid);
}

export function recordCheck(context: PipelineContext, layer: number, output: unknown) {
  return setCheck(context, layer, { verdict: parseVerdict(output) });
}

export function recordCheckError(context: PipelineContext, layer: number, error: unknown) {
  return setCheck(context, layer, { error: `the cross-check threw: ${messageOf(error)}` });
}

function setCheck(
  context: PipelineContext,
  layer: number,
  result: { verdict: ReturnType<typeof parseVerdict> } | { error: string },
) {
  const runs = (context.checks[layer]?.runs ?? 0) + 1;
  return { checks: { ...context.checks, [layer]: { ...result, overridden: false, runs } } };
}

export function awaitingReview(plan: ResolvedPlan, context: PipelineContext, layer: number) {
  return withStatus(context, idsIn(plan, layer), 'succeeded').filter(
    (id) => plan.stages[id]?.checkpoint && !context.stages[id]?.reviewed,
  );
}

/** The pause a waiting state of `layer` shows. */
export function pauseFor(
  reason: PipelinePause['reason'],
  plan: ResolvedPlan,
  context: PipelineContext,
  layer: number,
): { pause: PipelinePause } {
  if (reason === 'stage_failed') {
    const stages = failedIn(plan, context, layer);
    const outcomes: Record<string, LoopOutcome> = {};
    const lines: string[] = [];
    for (const id of stages) {
      const outcome = context.stages[id]?.outcome as LoopOutcome;
      outcomes[id] = outcome;
      lines.push(`stage '${id}' ended as ${outcome.status}: ${outcome.rationale}`);
    }
    return { pause: { reason, layer, stages, outcomes, message: lines.join('; ') } };
  }
  if (reason === 'stage_paused') return { pause: stagePauseOf(plan, context, layer) };
  if (reason === 'cross_check_failed') {
    const check = context.checks[layer];
    const { stages } = crossCheckInput(plan, context, layer);
    const verdict = check?.verdict;
    const why = check?.error ?? describeVerdict(verdict);
    return {
      pause: {
        reason,
        layer,
        stages,
        ...(verdict ? { verdict } : {}),
        ...(check?.error ? { error: check.error } : {}),
        message: `the cross-check of layer ${layer} (${stages.join(', ')}) failed: ${why}`,
      },
    };
  }
  const stages = awaitingReview(plan, context, layer);
  return {
    pause: {
      reason,
      layer,
      stages,
      results: resultsOf(context, stages),
      message: `${stages.map((id) => `stage '${id}'`).join(', ')} succeeded and waits for review`,
    },
  };
}

function describeVerdict(verdict: ReturnType<typeof parseVerdict> | undefined): string {
  if (!verdict || verdict.valid) return 'no verdict';
  if ('malformed' in verdict) return `its answer is not a validation result (${verdict.malformed})`;
  return verdict.error ? `${verdict.error.severity}: ${verdict.error.message}` : 'no diagnostic';
}

function quoteList(ids: readonly string[]): string {
  return ids.map((id) => `'${id}'`).join(', ');
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return describeValue(error);
}
