import { assign, setup } from 'xstate';
import type { RunResult } from '../loop/PausedRun.js';
import type { PipelineRunResult } from '../pipeline/drivePipeline.js';
import { agentActors } from './agentActors.js';
import { type AgentConfig, type ResolvedAgent, resolveAgentConfig } from './agentConfig.js';
import {
  type AgentContext,
  type AgentMachineInput,
  type AgentStep,
  initialAgentContext,
  type PlanningResult,
  traced,
} from './agentContext.js';
import { type AgentOutcome, buildAgentOutcome } from './agentOutcome.js';
import type { ShapeDecision } from './routeShape.js';
import type { Shape } from './shapes.js';

const when = <T extends unknown[]>(condition: boolean, ...items: T): T | [] =>
  condition ? items : [];

// Typed as always there, so the published machine type has no optional state (which a consumer
// with exactOptionalPropertyTypes rejects as not a StateSchema); at run time they exist only then.
const planningStates = <S extends object>(canPlan: boolean, states: S): S =>
  canPlan ? states : ({} as S);

const outputOf = <T>(event: { type: string }) => (event as unknown as { output: T }).output;
const errorOf = (event: { type: string }) => {
  const error: unknown = (event as { error?: unknown }).error;
  return error instanceof Error ? error.message : String(error);
};

/** The agent machine of a resolved config, with the given step actors. */
export function agentMachineOf(agent: ResolvedAgent, actors: ReturnType<typeof agentActors>) {
  const canPlan = agent.planning !== undefined;
  const failed = (state: AgentStep) => ({
    target: 'failed' as const,
    actions: { type: 'recordFailure' as const, params: { state } },
  });
  const runs = (state: 'singleShot' | 'loop') => ({
    entry: 'startStep' as const,
    invoke: {
      id: state,
      src: state,
      input: ({ context }: { context: AgentContext }) => ({ request: context.request }),
      onDone: {
        target: 'done' as const,
        actions: { type: 'recordResult' as const, params: { state } },
      },
      onError: failed(state),
    },
  });
  const routedTo = (shape: Shape, target: 'singleShot' | 'loop' | 'planning') => ({
    guard: { type: 'routedTo' as const, params: { shape } },
    target,
    actions: 'recordDecision' as const,
  });

  return setup({
    types: {
      context: {} as AgentContext,
      input: {} as AgentMachineInput,
      output: {} as AgentOutcome,
    },
    actors,
    guards: {
      resumesPipeline: ({ context }) => context.resume !== undefined,
      routedTo: ({ event }, { shape }: { shape: Shape }) =>
        outputOf<ShapeDecision | undefined>(event)?.shape === shape,
      planAccepted: ({ event }) => outputOf<PlanningResult | undefined>(event)?.plan !== undefined,
    },
    actions: {
      startStep: assign({ stepStartedAt: () => Date.now() }),
      recordDecision: assign(({ context, event }) => {
        const decision = outputOf<ShapeDecision>(event);
        return {
          decision,
          ...traced(context, {
            state: 'routing',
            shape: decision.shape,
            status: decision.decidedBy,
            rationale: decision.reasons.join('; '),
          }),
        };
      }),
      recordPlanning: assign(({ context, event }) => {
        const planning = outputOf<PlanningResult>(event);
        const { outcome, plan } = planning;
        const stages = plan?.stages.map((stage) => stage.id).join(', ');
        return {
          planning,
          plan,
          ...traced(context, {
            state: 'planning',
            shape: 'pipeline',
            status: outcome.status,
            rationale: plan
              ? `plan accepted after ${outcome.iterations} refine(s): ${stages}`
              : (planning.problem ?? outcome.rationale),
          }),
        };
      }),
      recordResult: assign(({ context, event }, { state }: { state: 'singleShot' | 'loop' }) => {
        const result = outputOf<RunResult>(event);
        return {
          result,
          ...traced(context, {
            state,
            shape: state === 'loop' ? 'loop' : 'single-shot',
            status: result.status,
            rationale: result.status === 'paused' ? `paused in ${result.state}` : result.rationale,
          }),
        };
      }),
      recordPipeline: assign(({ context, event }) => {
        const pipeline = outputOf<PipelineRunResult>(event);
        return {
          pipeline,
          ...traced(context, {
            state: 'pipeline',
            shape: 'pipeline',
            status: pipeline.status,
            rationale: `${context.resume ? 'resumed from the stored plan (the planner was not called); ' : ''}${pipeline.status === 'paused' ? pipeline.pause.message : pipeline.message}`,
          }),
        };
      }),
      recordFailure: assign(({ context, event }, { state }: { state: AgentStep }) => {
        const error = `${state} failed: ${errorOf(event)}`;
        return { error, ...traced(context, { state, status: 'failed', rationale: error }) };
      }),
    },
  }).createMachine({
    id: agent.id,
    context: ({ input }) => initialAgentContext(input),
    initial: 'start',
    states: {
      start: {
        always: [
          ...when(canPlan, { guard: 'resumesPipeline' as const, target: 'pipeline' as const }),
          { target: 'routing' as const },
        ],
      },
      routing: {
        description:
          'Decides the shape: single-shot, loop or pipeline (override, heuristic, model check)',
        entry: 'startStep',
        invoke: {
          id: 'route',
          src: 'route',
          input: ({ context }) => ({ request: context.request, override: context.override }),
          onDone: [
            routedTo('single-shot', 'singleShot'),
            ...when(canPlan, routedTo('pipeline', 'planning')),
            { target: 'loop', actions: 'recordDecision' },
          ],
          onError: failed('routing'),
        },
      },
      singleShot: {
        description: 'One attempt and one validation, no refine',
        ...runs('singleShot'),
      },
      loop: { description: 'The bounded loop of the task', ...runs('loop') },
      ...planningStates(canPlan, {
        planning: {
          description:
            'The planner loop: a plan checked against the registry, refined on its problems',
          entry: 'startStep' as const,
          invoke: {
            id: 'plan',
            src: 'plan' as const,
            input: ({ context }: { context: AgentContext }) => ({ request: context.request }),
            onDone: [
              {
                guard: 'planAccepted' as const,
                target: 'pipeline' as const,
                actions: 'recordPlanning' as const,
              },
              { target: 'planFailed' as const, actions: 'recordPlanning' as const },
            ],
            onError: failed('planning'),
          },
        },
        pipeline: {
          description: 'The planned pipeline, run (or resumed) from the accepted plan',
          entry: 'startStep' as const,
          invoke: {
            id: 'pipeline',
            src: 'pipeline' as const,
            input: ({ context }: { context: AgentContext }) => ({
              request: context.request,
              plan: context.plan as NonNullable<AgentContext['plan']>,
              decision: context.decision as ShapeDecision,
              resume: context.resume !== undefined,
              event: context.resume?.event,
            }),
            onDone: { target: 'done' as const, actions: 'recordPipeline' as const },
            onError: failed('pipeline'),
          },
        },
        planFailed: {
          type: 'final' as const,
          output: ({ context }: { context: AgentContext }) =>
            buildAgentOutcome(context, 'planFailed'),
        },
      }),
      done: { type: 'final', output: ({ context }) => buildAgentOutcome(context, 'done') },
      failed: { type: 'final', output: ({ context }) => buildAgentOutcome(context, 'failed') },
    },
    output: ({ event }) => event.output as AgentOutcome,
  });
}

/** The agent `createAgent` returns: its resolved config and its machine. */
export interface Agent<C = unknown> {
  readonly config: ResolvedAgent<C>;
  /** The routing statechart; `runAgent` runs it with the run's store and signal bound to its steps. */
  readonly machine: AgentMachine;
}

/** The statechart of an agent: `routing`, then `singleShot`, `loop` or `planning` → `pipeline`. */
export type AgentMachine = ReturnType<typeof agentMachineOf>;

/**
 * Builds an agent: a statechart that decides a request's shape up front (single-shot, loop or a
 * planned pipeline), records why, then runs that shape. A bad config throws `LoopConfigError` here.
 * @example const agent = createAgent({ task: { attempt, validate }, planner: { plan }, registry });
 *          const outcome = await runAgent(agent, 'Compare Acme and Globex for each quarter');
 */
export function createAgent<C>(config: AgentConfig<C>): Agent<C> {
  const resolved = resolveAgentConfig(config);
  return {
    config: resolved,
    machine: agentMachineOf(resolved as ResolvedAgent, agentActors(resolved as ResolvedAgent, {})),
  };
}
