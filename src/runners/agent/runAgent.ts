import { createActor, toPromise } from 'xstate';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import { checkRunOptions } from '../loop/prepareLoop.js';
import type { PipelineEvent } from '../pipeline/pipelineEvents.js';
import { pipelineRecordOf } from '../pipeline/pipelineRecord.js';
import type { PipelineRunOptions } from '../pipeline/runPipeline.js';
import {
  AGENT_PLAN_FORMAT,
  type AgentBinding,
  type AgentPlanSource,
  agentActors,
} from './agentActors.js';
import type { ResolvedAgent } from './agentConfig.js';
import type { AgentMachineInput } from './agentContext.js';
import type { AgentOutcome } from './agentOutcome.js';
import type { Agent } from './createAgent.js';
import { pauseForChoice } from './pauseForChoice.js';
import { checkPlan } from './planDocument.js';
import { routeShape, type ShapeDecision } from './routeShape.js';
import { type ShapeChoiceAnswer, shapeChoiceOf } from './shapeChoice.js';
import { SHAPES, type Shape } from './shapes.js';
import { takeBrief } from './takeBrief.js';

/** Options of `runAgent`: a pipeline run's options, and the caller's choice of shape. */
export interface AgentRunOptions extends Omit<PipelineRunOptions, 'planSource'> {
  /** Skips the router's tiers: the decision records the caller's choice and the heuristic's. */
  shape?: Shape;
}

/**
 * Routes a request and runs the chosen shape. With a `store`, a loop is checkpointed and a planned
 * pipeline saves its record with the accepted plan, so `resumeAgent` continues it without
 * planning again. Rejects only for bad options (`LoopConfigError`) or a store failure
 * (`CheckpointError`); everything a step does wrong is in the outcome.
 * @example const outcome = await runAgent(agent, 'What is the VAT rate in Spain?');
 *          console.log(outcome.shape, outcome.decision?.reasons);
 */
export async function runAgent<C>(
  agent: Agent<C>,
  request: string,
  options: AgentRunOptions = {},
): Promise<AgentOutcome<C>> {
  const problems = [
    ...(typeof request === 'string' ? [] : ['  - request: must be a string']),
    ...(options.shape === undefined || SHAPES.includes(options.shape)
      ? []
      : [`  - shape: must be one of ${SHAPES.join(', ')}`]),
    ...(options.shape === 'pipeline' && !agent.config.planning
      ? ['  - shape: pipeline needs an agent with a planner']
      : []),
  ];
  if (problems.length > 0)
    throw new LoopConfigError(`loopchart: invalid agent run\n${problems.join('\n')}`);
  const runId = options.store ? checkRunOptions(options, false).runId : undefined;
  const input = {
    request,
    ...(options.shape ? { shape: options.shape } : {}),
    ...(runId ? { runId } : {}),
  };
  if (agent.config.router.onDisagreement !== 'ask' || options.shape)
    return drive(agent, input, { ...options, runId });
  const decision = await routeShape(request, agent.config.router, { signal: options.signal });
  if (!decision.disagreement) return drive(agent, input, { ...options, runId }, decision);
  return pauseForChoice(
    agent.config as ResolvedAgent,
    request,
    { ...decision, disagreement: decision.disagreement },
    { store: options.store, runId },
  ) as Promise<AgentOutcome<C>>;
}

/** Options of `resumeAgent`: where the stored run is, and the answer to its pause. */
export interface ResumeAgentOptions extends Omit<AgentRunOptions, 'shape'> {
  store: NonNullable<AgentRunOptions['store']>;
  runId: string;
  /** A pipeline's answer, or the owner's choice of shape (`shape.choose`). */
  event?: PipelineEvent | ShapeChoiceAnswer;
  /** The checkpoint number of the brief being answered: a choice on a run that moved on is refused (`conflict`). */
  ifSeq?: number;
}

/**
 * Continues a planned pipeline from its stored record: the plan is read from the record (and
 * checked against this agent's registry), never asked of the planner again. A `shape.choose`
 * answer to a stored brief takes the brief by the store's compare-and-set before anything runs
 * (`takeBrief`): of answers arriving at once one runs the shape, the others reject with
 * `CheckpointError` `conflict`, as does an answer to a run already past its brief. Rejects with
 * `CheckpointError`: `not_found`, `corrupt` (no agent plan in the record), `other_machine` (the
 * plan does not fit this agent), or those of `resumePipeline`.
 * @example const done = await resumeAgent(agent, { store, runId: 'q3', event: { type: 'pipeline.continue' } });
 */
export async function resumeAgent<C>(
  agent: Agent<C>,
  options: ResumeAgentOptions,
): Promise<AgentOutcome<C>> {
  const { store, runId, claim } = checkRunOptions(options, true);
  const stored = await store.load(runId);
  if (!stored)
    throw new CheckpointError('not_found', runId, `loopchart: no record for run '${runId}'`);
  const brief = shapeChoiceOf(stored.data);
  if (brief) {
    const { ifSeq, event } = options;
    const hold = await takeBrief(store, stored, brief, { ifSeq, event, claim });
    let outcome: AgentOutcome<C>;
    try {
      const input = { request: brief.request, runId };
      outcome = await drive(agent, input, { ...options, after: hold.handOver }, hold.decided);
    } catch (error) {
      hold.drop();
      throw error;
    }
    await hold.finish(outcome.status);
    return outcome;
  }
  if ((options.event as { type?: unknown } | undefined)?.type === 'shape.choose') {
    throw new CheckpointError(
      'conflict',
      runId,
      `loopchart: run '${runId}' has no brief to answer: its shape was chosen and it moved on, so the answer was not applied`,
    );
  }
  const record = pipelineRecordOf(stored.data);
  const source = record?.planSource as Partial<AgentPlanSource> | undefined;
  if (
    source?.format !== AGENT_PLAN_FORMAT ||
    !source.decision ||
    typeof record?.context?.input !== 'string'
  ) {
    throw new CheckpointError(
      'corrupt',
      runId,
      `loopchart: run '${runId}' holds no plan of an agent (a single-shot or loop run continues with resumeLoop(agent.config.task, …))`,
    );
  }
  const planning = agent.config.planning;
  const check = planning
    ? checkPlan(source.plan, planning.registry, planning.maxStages)
    : undefined;
  if (!check?.ok) {
    const why = check ? check.problems.join('; ') : 'this agent has no planner';
    throw new CheckpointError(
      'other_machine',
      runId,
      `loopchart: run '${runId}': its stored plan does not fit this agent (${why})`,
    );
  }
  const resume = {
    decision: source.decision,
    plan: check.document,
    ...(options.event ? { event: options.event as PipelineEvent } : {}),
  };
  return drive(agent, { request: record.context.input, runId, resume }, options);
}

async function drive<C>(
  agent: Agent<C>,
  input: AgentMachineInput,
  options: AgentRunOptions & Pick<AgentBinding, 'runId' | 'after'>,
  decided?: ShapeDecision,
) {
  const thrown: unknown[] = [];
  const binding: AgentBinding = { ...options, thrown, ...(decided ? { decided } : {}) };
  const machine = agent.machine.provide({
    actors: agentActors(agent.config as ResolvedAgent, binding),
  });
  const actor = createActor(machine, {
    input,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  const outcome = await toPromise(actor.start());
  if (outcome.status === 'failed' && thrown.length > 0) throw thrown[0];
  return outcome as AgentOutcome<C>;
}
