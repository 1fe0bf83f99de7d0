import { fromPromise } from 'xstate';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { RunResult } from '../loop/PausedRun.js';
import type { InspectOption } from '../loop/prepareLoop.js';
import { runLoop, runLoopAfter } from '../loop/runLoop.js';
import type { PipelineRunResult } from '../pipeline/drivePipeline.js';
import type { PipelineEmitted, PipelineEvent } from '../pipeline/pipelineEvents.js';
import { resumePipeline, runPipelineAfter } from '../pipeline/runPipeline.js';
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
  /** A decision already made (routed before the machine, or the owner's answer): routing returns it. */
  decided?: ShapeDecision | undefined;
  /**
   * The run replaces a stored row (an answered brief): resolves to its seq once its writer stops
   * renewing it, and the shape's run numbers its checkpoints after it.
   */
  after?: (() => Promise<number>) | undefined;
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
  const runTask = (config: ResolvedAgent['plans']['task']) =>
    fromPromise<RunResult, { request: string }>(
      noting(async ({ request }, signal) => {
        if (!run.store) return runLoop(config, request, loopOptions(signal)) as Promise<RunResult>;
        const options = { ...loopOptions(signal), store: run.store };
        return runLoopAfter(config, request, options, await seqOf(run)) as Promise<RunResult>;
      }),
    );
  const planning = agent.planning;
  return {
    route: fromPromise<ShapeDecision, { request: string; override: Shape | undefined }>(
      noting(async ({ request, override }, signal) =>
        run.decided ? run.decided : routeShape(request, agent.router, { override, signal }),
      ),
    ),
    singleShot: runTask(agent.plans.singleShot),
    loop: runTask(agent.plans.task),
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
      noting(async ({ request, plan, decision, resume, event }, signal) => {
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
        if (!resume) return runPipelineAfter(pipelinePlan, request, options, await seqOf(run));
        return resumePipeline(pipelinePlan, { ...options, ...(event ? { event } : {}) });
      }),
    ),
  };
}

/** The stored seq a fresh shape's run numbers its checkpoints after: 0, or its answered brief's. */
const seqOf = (run: AgentBinding) => (run.after ? run.after() : Promise.resolve(0));
