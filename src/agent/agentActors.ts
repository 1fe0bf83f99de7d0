import { fromPromise } from 'xstate';
import type { LoopOutcome } from '../outcome.js';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
import type { RunResult } from '../persistence/PausedRun.js';
import type { InspectOption } from '../persistence/prepareLoop.js';
import type { PipelineRunResult } from '../pipeline/drivePipeline.js';
import type { PipelineEmitted, PipelineEvent } from '../pipeline/pipelineEvents.js';
import { resumePipeline, runPipeline } from '../pipeline/runPipeline.js';
import { runLoop } from '../runLoop.js';
import type { ResolvedAgent } from './agentConfig.js';
import type { PlanningResult } from './agentContext.js';
import { checkPlan, type PlanDocument, planFromDocument } from './planDocument.js';
import { routeShape, type ShapeDecision } from './routeShape.js';
import type { Shape } from './shapes.js';

/** What one run binds the agent's steps to: its signal, observers and store. */
export interface AgentBinding {
  signal?: AbortSignal | undefined;
  inspect?: InspectOption;
  onEvent?: ((event: PipelineEmitted) => void) | undefined;
  store?: CheckpointStore | undefined;
  runId?: string | undefined;
  /** Collects what the steps throw, in order: `runAgent` rejects with the first (a store failure). */
  thrown?: unknown[];
}

/** The record field `planSource` of a planned pipeline: what resume rebuilds the plan from. */
export interface AgentPlanSource {
  format: typeof AGENT_PLAN_FORMAT;
  plan: PlanDocument;
  decision: ShapeDecision;
}

export const AGENT_PLAN_FORMAT = 'loopchart.agent.plan';

const withRun = (own: AbortSignal, run: AbortSignal | undefined) =>
  run ? AbortSignal.any([own, run]) : own;

/** The agent machine's invoked steps, each a thin wrapper on routeShape, runLoop or runPipeline. */
export function agentActors(agent: ResolvedAgent, run: AgentBinding) {
  const noting =
    <I, O>(step: (input: I, signal: AbortSignal) => Promise<O>) =>
    ({ input, signal }: { input: I; signal: AbortSignal }) =>
      step(input, withRun(signal, run.signal)).catch((error: unknown) => {
        run.thrown?.push(error);
        throw error;
      });
  const loopOptions = (signal: AbortSignal) => ({
    signal,
    ...(run.inspect ? { inspect: run.inspect } : {}),
    ...(run.store ? { store: run.store, ...(run.runId ? { runId: run.runId } : {}) } : {}),
  });
  const runTask = (config: ResolvedAgent['task']) =>
    fromPromise<RunResult, { request: string }>(
      noting(
        ({ request }, signal) =>
          runLoop(config, request, loopOptions(signal)) as Promise<RunResult>,
      ),
    );
  const planning = agent.planning;
  return {
    route: fromPromise<ShapeDecision, { request: string; override: Shape | undefined }>(
      noting(({ request, override }, signal) =>
        routeShape(request, agent.router, { override, signal }),
      ),
    ),
    singleShot: runTask(agent.singleShotTask),
    loop: runTask(agent.task),
    plan: fromPromise<PlanningResult, { request: string }>(
      noting(async ({ request }, signal): Promise<PlanningResult> => {
        if (!planning) throw new Error('loopchart: this agent has no planner');
        const outcome = (await runLoop(planning.loop, request, {
          signal,
          ...(run.inspect ? { inspect: run.inspect } : {}),
        })) as LoopOutcome;
        if (!outcome.ok || outcome.status === 'empty') return { outcome };
        const check = checkPlan(outcome.candidate, planning.registry, planning.maxStages);
        return check.ok
          ? { outcome, plan: check.document }
          : { outcome, problem: check.problems.join('; ') };
      }),
    ),
    pipeline: fromPromise<
      PipelineRunResult,
      {
        request: string;
        plan: PlanDocument;
        decision: ShapeDecision;
        resume: boolean;
        event: PipelineEvent | undefined;
      }
    >(
      noting(({ request, plan, decision, resume, event }, signal) => {
        if (!planning) throw new Error('loopchart: this agent has no planner');
        const pipelinePlan = planFromDocument(plan, planning.registry, planning.pipeline);
        const planSource: AgentPlanSource = { format: AGENT_PLAN_FORMAT, plan, decision };
        const options = {
          signal,
          planSource,
          ...(run.inspect ? { inspect: run.inspect } : {}),
          ...(run.onEvent ? { onEvent: run.onEvent } : {}),
          ...(run.store ? { store: run.store, ...(run.runId ? { runId: run.runId } : {}) } : {}),
        };
        if (!resume) return runPipeline(pipelinePlan, request, options);
        return resumePipeline(pipelinePlan, { ...options, ...(event ? { event } : {}) });
      }),
    ),
  };
}
