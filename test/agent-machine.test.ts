/**
 * The agent machine, statically and along every path: it passes assertBoundedLoops, and the simple
 * paths xstate/graph finds (fed realistic done/error events of its steps) are replayed against the
 * real machine; loopchart/testing's transitionCoverage then shows every transition taken and every
 * final state reached. getLoopPaths is for loop machines, so the events are written here.
 */

import { type LoopOutcome, runLoop } from 'loopchart';
import {
  type AgentMachineInput,
  type AgentOutcome,
  checkPlan,
  createAgent,
  type PlanDocument,
  routeShape,
} from 'loopchart/agent';
import { assertBoundedLoops } from 'loopchart/analysis';
import { runPipeline } from 'loopchart/pipeline';
import { transitionCoverage } from 'loopchart/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromPromise,
  toPromise,
} from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import { transitionRecorder } from '../src/tools/testing/takenTransitions.js';
import { correctable, valid } from './support/scriptedSteps.js';

const task = { attempt: () => 'an answer', validate: () => valid };
const registry = { lookup: { loop: task } };
const planner = { plan: () => '{"stages":[{"id":"a","kind":"lookup"}]}' };
const withPlanner = createAgent({ task, planner, registry });
const withoutPlanner = createAgent({ task });

const STEPS = ['route', 'singleShot', 'loop', 'plan', 'pipeline'] as const;
type Step = (typeof STEPS)[number];
const STATE_STEP: Record<string, Step> = {
  routing: 'route',
  singleShot: 'singleShot',
  loop: 'loop',
  planning: 'plan',
  pipeline: 'pipeline',
};

/** Realistic outputs of each step, produced by the real functions. */
let outputs: Record<Step, unknown[]>;
beforeAll(async () => {
  const router = withPlanner.config.router;
  const plan = (checkPlan(planner.plan(), registry, 12) as { document: PlanDocument }).document;
  const proceed = await runLoop(task, 'q');
  const exhausted = await runLoop(
    { ...task, validate: () => correctable('no'), maxRetries: 0 },
    'q',
  );
  const pipelinePlan = { stages: [{ id: 'a', loop: task, checkpoint: true }] };
  const paused = await runPipeline(pipelinePlan, 'q');
  const completed = await runPipeline({ stages: [{ id: 'a', loop: task }] }, 'q');
  outputs = {
    route: await Promise.all([
      routeShape('What is 2 + 2?', router),
      routeShape('Draft a memo', router),
      routeShape('Compare A and B', router),
    ]),
    singleShot: [proceed, exhausted],
    loop: [proceed],
    plan: [
      { outcome: { ...proceed, candidate: planner.plan() } as LoopOutcome, plan },
      { outcome: exhausted },
    ],
    pipeline: [completed, paused],
  };
});

function eventsOf(snapshot: AnyMachineSnapshot): EventObject[] {
  const step = STATE_STEP[String(snapshot.value)];
  if (!step) return [];
  const error = { type: `xstate.error.actor.${step}`, error: new Error(`${step} broke`) };
  return [...outputs[step].map((output) => ({ type: `xstate.done.actor.${step}`, output })), error];
}

interface AgentPath {
  events: EventObject[];
  status: string;
  transitions: string[];
  outcome: AgentOutcome;
}

/** Every simple path from `input`, replayed with steps that answer as the path says. */
async function replayAll(machine: AnyStateMachine, input: AgentMachineInput): Promise<AgentPath[]> {
  const found = getSimplePaths(machine, {
    input,
    events: eventsOf,
    toState: (s) => s.status === 'done',
  } as Parameters<typeof getSimplePaths<AnyStateMachine>>[1]);
  return Promise.all(
    found.map(async (path) => {
      const events = path.steps.slice(1).map((step) => step.event);
      const script = [...events];
      const scripted = Object.fromEntries(
        STEPS.map((step) => [
          step,
          fromPromise(async () => {
            const next = script.shift() as { type: string; output?: unknown; error?: unknown };
            expect(next.type).toMatch(new RegExp(`\\.actor\\.${step}$`));
            if (next.type.startsWith('xstate.error')) throw next.error;
            return next.output;
          }),
        ]),
      );
      const real = machine.provide({ actors: scripted });
      const recorder = transitionRecorder(real);
      const actor = createActor(real, { input, inspect: recorder.inspect });
      const outcome = (await toPromise(actor.start())) as AgentOutcome;
      const status = String(actor.getSnapshot().value);
      expect(status).toBe(String(path.state.value));
      expect(script).toEqual([]);
      return { events, status, transitions: recorder.taken, outcome };
    }),
  );
}

describe('the agent machine', () => {
  it.each([
    ['with a planner', withPlanner],
    ['without a planner', withoutPlanner],
  ])('passes assertBoundedLoops (%s)', (_, agent) => {
    expect(() => assertBoundedLoops(agent.machine, { strict: true })).not.toThrow();
  });

  it('holds only the states its config can reach', () => {
    expect(Object.keys(withPlanner.machine.root.states)).toEqual([
      'start',
      'routing',
      'singleShot',
      'loop',
      'planning',
      'pipeline',
      'planFailed',
      'done',
      'failed',
    ]);
    expect(Object.keys(withoutPlanner.machine.root.states)).toEqual([
      'start',
      'routing',
      'singleShot',
      'loop',
      'done',
      'failed',
    ]);
  });

  it('every transition is covered and every final state reached by replayed paths', async () => {
    const fresh = await replayAll(withPlanner.machine as AnyStateMachine, { request: 'q' });
    const resumed = await replayAll(withPlanner.machine as AnyStateMachine, {
      request: 'q',
      resume: {
        decision: outputs.route[2] as never,
        plan: (outputs.plan[0] as { plan: PlanDocument }).plan,
      },
    });
    const paths = [...fresh, ...resumed];
    expect(fresh).toHaveLength(11);
    expect(resumed).toHaveLength(3);
    const coverage = transitionCoverage(withPlanner.machine, paths);
    expect(coverage.uncovered).toEqual([]);
    expect(coverage.unreachedFinals).toEqual([]);
    expect(coverage.ratio).toBe(1);

    // The bounds of an agent run on every path: one shape, at most one planning, one trace entry per step.
    for (const { outcome, events } of paths) {
      const states = outcome.trace.map((entry) => entry.state);
      expect(states.filter((s) => s === 'routing').length).toBeLessThanOrEqual(1);
      expect(states.filter((s) => s === 'planning').length).toBeLessThanOrEqual(1);
      expect(outcome.trace.length).toBe(events.length);
      expect(outcome.ok).toBe(outcome.status === 'proceed' || outcome.status === 'completed');
    }
    const resumedRun = resumed.find((p) => p.status === 'done');
    expect(resumedRun?.outcome.trace[0]?.rationale).toMatch(
      /^resumed from the stored plan \(the planner was not called\); /,
    );
  });

  it('without a planner, paths cover that machine too', async () => {
    const paths = await replayAll(withoutPlanner.machine as AnyStateMachine, { request: 'q' });
    expect(transitionCoverage(withoutPlanner.machine, paths).uncovered).toEqual([]);
  });
});
