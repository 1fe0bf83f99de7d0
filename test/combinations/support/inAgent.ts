/**
 * The combination's loop as an agent's task (loopchart/agent): the request is routed by the
 * heuristic (or the caller picks the shape), then runs single-shot (one attempt, one validation,
 * no refine, no fallback) or as the loop, on a memory store; pauses are answered through
 * `resumeLoop` with the task of the chosen shape.
 */
import { isPausedRun, type LoopConfig, type LoopOutcome, resumeLoop } from 'loopchart';
import { createAgent, runAgent, type Shape } from 'loopchart/agent';
import { answerEvent, nthAnswer } from './answerEvent.js';
import type { Combination } from './combination.js';
import type { Ledger } from './ledger.js';
import { refused } from './onStore.js';
import { type RunState, standIn } from './runState.js';
import { openStore } from './stores.js';

const REQUESTS = {
  simple: 'What is the total?',
  draft: 'Draft the total',
  compare: 'Compare the totals for each region',
} as const;

/** The shape the agent must choose: the caller's, else the heuristic's (no planner: a pipeline runs as a loop). */
export function agentShape(c: Combination): Exclude<Shape, 'pipeline'> {
  if (c.agent.shape !== 'routed') return c.agent.shape;
  return c.agent.request === 'simple' ? 'single-shot' : 'loop';
}

export async function inAgent(
  c: Combination,
  config: LoopConfig<unknown, unknown>,
  ledger: Ledger,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const agent = createAgent({ task: config as LoopConfig<string, unknown> });
  const { store } = openStore('memory', state);
  const runId = globalThis.crypto.randomUUID();
  const override = c.agent.shape === 'routed' ? {} : { shape: c.agent.shape };
  state.calls += 1;
  const ran = await runAgent(agent, REQUESTS[c.agent.request], {
    store,
    runId,
    signal,
    ...override,
  });
  const expected = agentShape(c);
  const { decision } = ran;
  if (ran.shape !== expected || decision?.shape !== expected)
    state.problems.push(
      `the agent chose ${ran.shape} (decision ${decision?.shape}), not ${expected}`,
    );
  if (decision?.decidedBy !== (c.agent.shape === 'routed' ? 'heuristic' : 'override'))
    state.problems.push(`the shape was decided by ${decision?.decidedBy}`);
  if (ran.trace[0]?.state !== 'routing')
    state.problems.push('the trace does not open with routing');
  let result = ran.result;
  if (!result) return standIn(state, 'aborted', `the agent ended ${ran.status}: ${ran.message}`);
  if (ran.status !== result.status || ran.ok !== (result.status !== 'paused' && result.ok))
    state.problems.push(`the agent says ${ran.status}/${ran.ok}, its run ${result.status}`);
  const task = expected === 'single-shot' ? agent.config.singleShotTask : agent.config.task;
  let answers = 0;
  while (isPausedRun(result)) {
    const answer = nthAnswer(c.answers, answers++);
    const event = answerEvent(answer, result.pending);
    state.calls += 1;
    if (answer === 'bad') {
      await refused(store, runId, () => resumeLoop(task, { store, runId, event: event as never }));
      state.refusals += 1;
      continue;
    }
    state.segments += 1;
    result = await resumeLoop(task, { store, runId, event: event as never, signal });
  }
  if (expected === 'single-shot') {
    const extra = [...ledger.effects.keys()].filter((key) => !key.startsWith('attempt:'));
    if (extra.length > 0) state.problems.push(`a single-shot run also ran ${extra.join(', ')}`);
  }
  return result;
}
