import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { RunResult } from '../loop/PausedRun.js';
import type { AgentContext } from './agentContext.js';
import type { ShapeChoiceBrief } from './shapeChoice.js';
import type { Shape } from './shapes.js';

/**
 * How an agent run ended. `status` is the chosen shape's: a loop status for `single-shot` and
 * `loop` (`paused` when its loop waits for a person), `completed` / `aborted` / `paused` for a
 * pipeline, the planner loop's status when no plan was accepted, `failed` when a step threw.
 */
export type AgentStatus = LoopStatus | 'paused' | 'completed' | 'failed';

/** The outcome of `runAgent` / `resumeAgent`: the shape, why it was chosen, and what it produced. */
export interface AgentOutcome<C = unknown>
  extends Pick<AgentContext, 'decision' | 'planning' | 'plan' | 'pipeline' | 'trace'> {
  /** The run of the single-shot or loop shape. */
  result?: RunResult<C>;
  status: AgentStatus;
  ok: boolean;
  /** The shape that ran; undefined only when routing itself failed. */
  shape: Shape | undefined;
  message: string;
  runId?: string;
  /** Paused for the owner: the heuristic and the model check disagree (`onDisagreement: 'ask'`). */
  choice?: ShapeChoiceBrief;
}

/** The outcome the agent machine's final state `end` stands for. */
export function buildAgentOutcome(
  context: AgentContext,
  end: 'done' | 'planFailed' | 'failed',
): AgentOutcome {
  const { decision, planning, plan, result, pipeline, trace, runId } = context;
  const base = {
    shape: decision?.shape,
    decision,
    planning,
    plan,
    ...(result ? { result } : {}),
    pipeline,
    trace,
    ...(runId ? { runId } : {}),
  };
  if (end === 'failed') {
    return {
      ...base,
      status: 'failed',
      ok: false,
      message: context.error ?? 'a step of the agent failed',
    };
  }
  if (end === 'planFailed') {
    const outcome = planning?.outcome;
    const accepted = outcome?.ok === true;
    return {
      ...base,
      status: accepted ? 'terminate_with_partial' : (outcome?.status ?? 'failed'),
      ok: false,
      message: accepted
        ? `the planner's fallback plan was rejected: ${planning?.problem ?? 'it does not fit the registry'}`
        : `no plan was accepted: ${outcome?.rationale ?? 'the planner did not finish'}`,
    };
  }
  if (pipeline) {
    const message = pipeline.status === 'paused' ? pipeline.pause.message : pipeline.message;
    return {
      ...base,
      status: pipeline.status,
      ok: pipeline.status === 'completed' && pipeline.ok,
      message,
    };
  }
  if (result) {
    const message = result.status === 'paused' ? `paused in ${result.state}` : result.rationale;
    return { ...base, status: result.status, ok: result.ok, message };
  }
  return {
    ...base,
    status: 'failed',
    ok: false,
    message: 'the agent ended without running a shape',
  };
}
