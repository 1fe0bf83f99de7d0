/**
 * The combination's loop as an agent's task (loopchart/agent): the request is routed by the
 * heuristic and a bounded model check (or the caller picks the shape), then runs single-shot
 * (one attempt, one validation, no refine, no fallback) or as the loop, on a memory store;
 * pauses are answered through `resumeLoop` with the task of the chosen shape.
 */
import { type LoopConfig, type LoopOutcome, resumeLoop } from 'loopchart';
import { createAgent, runAgent, type Shape, type ShapeDecision } from 'loopchart/agent';
import { type Combination, MODEL_CHECK_TIMEOUT_MS } from './combination.js';
import { faultyStore } from './faultyStore.js';
import { hang, type Ledger } from './ledger.js';
import { driveSession } from './onStore.js';
import { type RunState, standIn } from './runState.js';
import { afterExpiry, openStore } from './stores.js';

const REQUESTS = {
  simple: 'What is the total?',
  draft: 'Draft the total',
  compare: 'Compare the totals for each region',
} as const;

export async function inAgent(
  c: Combination,
  config: LoopConfig<unknown, unknown>,
  ledger: Ledger,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const agent = createAgent({
    task: config as LoopConfig<string, unknown>,
    ...modelCheck(c, ledger),
  });
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
  const shape = decisionProblems(c, ran.decision, state);
  if (ran.shape !== shape) state.problems.push(`the agent ran ${ran.shape}, not ${shape}`);
  if (ran.trace[0]?.state !== 'routing')
    state.problems.push('the trace does not open with routing');
  if (shape === 'single-shot') {
    state.maxAttempts = 1;
    state.maxRetries = 0;
  }
  const result = ran.result;
  if (!result) return standIn(state, 'aborted', `the agent ended ${ran.status}: ${ran.message}`);
  if (ran.status !== result.status || ran.ok !== (result.status !== 'paused' && result.ok))
    state.problems.push(`the agent says ${ran.status}/${ran.ok}, its run ${result.status}`);
  const task = shape === 'single-shot' ? agent.config.singleShotTask : agent.config.task;
  // the agent's own run sees the store as it is; the answers to its pauses see its faults, and a
  // writer whose save failed (its claim's release hung, say) as if its claim had expired since
  const view = afterExpiry(faultyStore(store, c.faults.store, ledger));
  const outcome = await driveSession(c, state, ledger, {
    raw: store,
    runId,
    first: result,
    resume: (event, live, on = view) =>
      resumeLoop(task, { store: on, runId, event: event as never, ...(live ? { signal } : {}) }),
  });
  if (shape === 'single-shot') {
    const extra = [...ledger.effects.keys()].filter((key) => !key.startsWith('attempt:'));
    if (extra.length > 0) state.problems.push(`a single-shot run also ran ${extra.join(', ')}`);
  }
  return outcome;
}

/** The router's model check: always asked, capped at MODEL_CHECK_TIMEOUT_MS. */
function modelCheck(c: Combination, ledger: Ledger) {
  const { check } = c.agent;
  if (check === 'none') return {};
  const ask = ({ signal }: { signal: AbortSignal }) => {
    if (check === 'hang') return hang(ledger, 'modelCheck', signal);
    return check === 'garbage' ? 'it depends on the region' : check;
  };
  return {
    router: { modelCheck: { ask, timeoutMs: MODEL_CHECK_TIMEOUT_MS, when: 'always' as const } },
  };
}

/**
 * The shape the agent must have chosen, and why: the caller's; else the model check's answer
 * when it gave one (`simple` single-shot, `complex` a pipeline); else the heuristic's. With no
 * planner, a pipeline runs as a loop. Whatever disagrees goes to `state.problems`.
 */
function decisionProblems(
  c: Combination,
  decision: ShapeDecision | undefined,
  state: RunState,
): Exclude<Shape, 'pipeline'> {
  const check = decision?.model;
  const answered = check?.status === 'answered' ? check.answer : undefined;
  const routed = c.agent.shape === 'routed';
  const heuristic = c.agent.request === 'simple' ? 'single-shot' : 'loop';
  const byModel = answered === 'simple' ? 'single-shot' : 'loop';
  const shape = c.agent.shape !== 'routed' ? c.agent.shape : answered ? byModel : heuristic;
  if (decision?.shape !== shape)
    state.problems.push(`the decision says ${decision?.shape}, not ${shape}`);
  const by = !routed ? 'override' : answered ? 'model' : 'heuristic';
  if (decision?.decidedBy !== by)
    state.problems.push(`the shape was decided by ${decision?.decidedBy}, not ${by}`);
  if ((routed && c.agent.check !== 'none') !== (check !== undefined))
    state.problems.push(`the model check was ${check ? '' : 'not '}asked`);
  if (answered && answered !== c.agent.check)
    state.problems.push(
      `the model check answered ${answered}, but the model said ${c.agent.check}`,
    );
  if (c.agent.check === 'hang' && check && !['timeout', 'aborted'].includes(check.status))
    state.problems.push(`a model check that hung ended ${check.status}`);
  return shape;
}
