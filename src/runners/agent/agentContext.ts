import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { RunResult } from '../loop/PausedRun.js';
import type { PipelineRunResult } from '../pipeline/drivePipeline.js';
import type { PipelineEvent } from '../pipeline/pipelineEvents.js';
import type { PlanDocument } from './planDocument.js';
import type { ShapeDecision } from './routeShape.js';
import type { Shape } from './shapes.js';

/** The agent machine's states that do work, as they appear in the trace. */
export type AgentStep = 'routing' | 'planning' | 'singleShot' | 'loop' | 'pipeline';

/** One step of an agent run (JSON): the routing decision, the planning, the shape's run. */
export interface AgentTraceEntry {
  seq: number;
  state: AgentStep;
  /** The shape the step chose (routing) or ran. */
  shape?: Shape;
  /** How the step ended: the child's status, or `resumed` for a pipeline continued from its record. */
  status?: string;
  rationale: string;
  startedAt: number;
  durationMs: number;
}

/** What the planning step returns: the planner loop's outcome and, when it fits, the plan. */
export interface PlanningResult {
  outcome: LoopOutcome;
  plan?: PlanDocument;
  /** Why an ok outcome (a fallback's plan) still gave no plan. */
  problem?: string;
}

/** Continue a stored planned pipeline: the plan and decision read from its record, and the answer. */
export interface AgentResume {
  decision: ShapeDecision;
  plan: PlanDocument;
  event?: PipelineEvent;
}

/** The agent machine's input. */
export interface AgentMachineInput {
  request: string;
  /** The caller's choice of shape; the router records it and the heuristic's opinion. */
  shape?: Shape;
  runId?: string;
  resume?: AgentResume;
}

/** The agent machine's context: JSON, bounded (one entry per step, at most four). */
export interface AgentContext {
  request: string;
  override: Shape | undefined;
  runId: string | undefined;
  resume: AgentResume | undefined;
  decision: ShapeDecision | undefined;
  planning: PlanningResult | undefined;
  plan: PlanDocument | undefined;
  /** The run of the single-shot or loop shape. */
  result: RunResult | undefined;
  pipeline: PipelineRunResult | undefined;
  /** A step that threw (a store failure, a bug): its message. */
  error: string | undefined;
  stepStartedAt: number;
  trace: AgentTraceEntry[];
}

export function initialAgentContext(input: AgentMachineInput): AgentContext {
  return {
    request: input.request,
    override: input.shape,
    runId: input.runId,
    resume: input.resume,
    decision: input.resume?.decision,
    planning: undefined,
    plan: input.resume?.plan,
    result: undefined,
    pipeline: undefined,
    error: undefined,
    stepStartedAt: Date.now(),
    trace: [],
  };
}

/** The context with one more trace entry for the step that just ended. */
export function traced(
  context: AgentContext,
  entry: Omit<AgentTraceEntry, 'seq' | 'startedAt' | 'durationMs'>,
): Pick<AgentContext, 'trace'> {
  const now = Date.now();
  return {
    trace: [
      ...context.trace,
      {
        seq: context.trace.length + 1,
        ...entry,
        startedAt: context.stepStartedAt,
        durationMs: Math.max(0, now - context.stepStartedAt),
      },
    ],
  };
}
