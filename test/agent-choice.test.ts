/**
 * An agent whose heuristic and model check disagree pauses for its owner (`onDisagreement: 'ask'`):
 * the brief's certificates are `certifyLoop` / `certifyPipeline` of what each shape runs, the
 * brief is stored, and the answer — given in another process — runs the chosen shape only.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyLoopConfig, type LoopConfig, MemoryCheckpointStore, withCost } from 'loopchart';
import { type AgentConfig, createAgent, resumeAgent, runAgent } from 'loopchart/agent';
import { certifyLoop, certifyPipeline } from 'loopchart/analysis';
import type { PipelinePlan } from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from './support/compileLibrary.js';
import { readJournal } from './support/readJournal.js';

const valid = () => ({ valid: true }) as const;

const request = 'What is the VAT rate in Spain?'; // no rule matches: the heuristic says single-shot
const task: LoopConfig<string, string> = {
  attempt: ({ input }) => `answer to ${input}`,
  validate: valid,
  refine: ({ candidate }) => candidate,
  maxRetries: 2,
  costEstimates: { attempt: 0.02, validate: 0.001, refine: 0.01 },
  attemptTimeoutMs: 10_000,
  stepTimeoutMs: 2_000,
};
const stageLoop: LoopConfig<string, string> = { attempt: () => '21%', validate: valid };
const agentOf = (router: AgentConfig<string>['router'], planner = true) =>
  createAgent<string>({
    task,
    router,
    ...(planner
      ? {
          planner: { plan: () => '{"stages":[{"id":"rate","kind":"lookup"}]}' },
          registry: { lookup: { loop: stageLoop } },
        }
      : {}),
  });
const complex = { ask: () => 'complex' };

/** The planner, then `n` stages of one loop in a chain: the largest plan docs/agent.md names. */
function chainOf(
  planner: AnyLoopConfig,
  loop: AnyLoopConfig,
  n: number,
  id = 'plannedPipeline',
  crossCheck?: PipelinePlan['crossCheck'],
): PipelinePlan {
  const stages = Array.from({ length: n }, (_, i) => ({
    id: `stage${i + 1}`,
    dependsOn: [i === 0 ? 'planner' : `stage${i}`],
    loop,
  }));
  return {
    id,
    stages: [{ id: 'planner', loop: planner }, ...stages],
    ...(crossCheck ? { crossCheck } : {}),
  };
}

/** The same stages in layers of two (the last alone when `n` is odd), each checked together. */
function pairsOf(
  planner: AnyLoopConfig,
  loop: AnyLoopConfig,
  n: number,
  id: string,
  crossCheck: PipelinePlan['crossCheck'],
): PipelinePlan {
  const stages = Array.from({ length: n }, (_, i) => {
    const layer = Math.floor(i / 2);
    const before = layer === 0 ? ['planner'] : [`stage${2 * layer - 1}`, `stage${2 * layer}`];
    return { id: `stage${i + 1}`, dependsOn: before, loop };
  });
  return { id, stages: [{ id: 'planner', loop: planner }, ...stages], crossCheck };
}

describe('the owner choice brief', () => {
  it("holds each shape's certificate, equal to certifyLoop or certifyPipeline of what that shape runs", async () => {
    const { refine: _r, ...once } = task;
    const singleShot = certifyLoop({ ...once, maxRetries: 0, maxAttempts: 1, stall: false });
    const loop = certifyLoop(task);

    const noPlanner = agentOf({ modelCheck: complex, onDisagreement: 'ask' }, false);
    const asked = await runAgent(noPlanner, request);
    expect(asked).toMatchObject({ status: 'paused', ok: false, shape: undefined });
    expect(asked.decision?.disagreement).toEqual({ heuristic: 'single-shot', model: 'loop' });
    expect(asked.choice?.candidates.map((c) => [c.shape, c.suggestedBy, c.covers])).toEqual([
      ['single-shot', 'heuristic', 'the whole run'],
      ['loop', 'model', 'the whole run'],
    ]);
    expect(asked.choice?.candidates[0]?.certificate).toEqual(singleShot);
    expect(asked.choice?.candidates[1]?.certificate).toEqual(loop);
    expect(singleShot.calls.total.value).toBeLessThan(loop.calls.total.value as number);
    expect(asked.choice?.recommendation.shape).toBe('single-shot');

    const planned = agentOf({ modelCheck: complex, onDisagreement: 'ask' });
    const withPlanner = await runAgent(planned, request);
    const planner = planned.config.planning?.loop.config as LoopConfig;
    expect(withPlanner.choice?.candidates.map((c) => [c.shape, c.covers])).toEqual([
      ['single-shot', 'the whole run'],
      ['pipeline', 'the planner and the largest plan'],
    ]);
    expect(withPlanner.choice?.candidates[0]?.certificate).toEqual(singleShot);
    // the plan is unknown before planning: the bound is the planner, then 12 (maxStages) lookups
    const largest = certifyPipeline(chainOf(planner, stageLoop, 12));
    expect(withPlanner.choice?.candidates[1]?.certificate).toEqual({
      kind: 'planned-pipeline',
      id: 'plannedPipeline',
      maxStages: 12,
      plans: { 'chain:lookup': largest },
      calls: largest.calls,
      crossChecks: 0,
      cost: largest.cost,
      timeMs: largest.timeMs,
      reachedBy: { calls: 'chain:lookup', cost: 'chain:lookup', timeMs: 'chain:lookup' },
      pauses: 'unbounded-by-design',
    });
    expect(largest.calls.total).toBe(
      (certifyLoop(planner).calls.total.value as number) +
        12 * (certifyLoop(stageLoop).calls.total.value as number),
    );
  });

  it('bounds the pipeline shape by the largest of certifyPipeline over the plans it may run', async () => {
    // two kinds: `many` makes the most calls and costs most, `slow` takes longest; with a
    // cross-check (15 min by default) slower than a stage, stages in pairs take longest
    const many: LoopConfig<string, string> = {
      attempt: () => 'x',
      validate: valid,
      refine: ({ candidate }) => candidate,
      maxRetries: 3,
      costEstimates: { attempt: 0.05, validate: 0.01, refine: 0.05 },
      attemptTimeoutMs: 1_000,
      stepTimeoutMs: 1_000,
      retryDelayMs: 0,
      maxRetryDelayMs: 0,
    };
    const slow: LoopConfig<string, string> = {
      attempt: () => 'x',
      validate: valid,
      costEstimates: { attempt: 0.01, validate: 0 },
      maxRetries: 0,
      retryDelayMs: 0,
      maxRetryDelayMs: 0,
      attemptTimeoutMs: 120_000,
      stepTimeoutMs: 60_000,
    };
    const agent = createAgent<string>({
      task,
      router: { modelCheck: complex, onDisagreement: 'ask' },
      planner: {
        plan: () => '{"stages":[]}',
        maxStages: 3,
        loop: { costEstimates: { attempt: 0.1, validate: 0 } },
      },
      registry: { many: { loop: many }, slow: { loop: slow } },
      pipeline: { id: 'research', crossCheck: valid },
    });
    const outcome = await runAgent(agent, request);
    const planner = agent.config.planning?.loop.config as LoopConfig;
    const plans = {
      'chain:many': certifyPipeline(chainOf(planner, many, 3, 'research', valid)),
      'pairs:many': certifyPipeline(pairsOf(planner, many, 3, 'research', valid)),
      'chain:slow': certifyPipeline(chainOf(planner, slow, 3, 'research', valid)),
      'pairs:slow': certifyPipeline(pairsOf(planner, slow, 3, 'research', valid)),
    };
    const certificate = outcome.choice?.candidates[1]?.certificate;
    expect(certificate).toEqual({
      kind: 'planned-pipeline',
      id: 'research',
      maxStages: 3,
      plans,
      calls: plans['chain:many'].calls,
      crossChecks: 1,
      cost: plans['chain:many'].cost,
      timeMs: plans['pairs:slow'].timeMs,
      reachedBy: { calls: 'chain:many', cost: 'chain:many', timeMs: 'pairs:slow' },
      pauses: 'unbounded-by-design',
    });
    // the numbers, by hand: the planner then three stages of the kind
    const loopOf = (config: AnyLoopConfig) => certifyLoop(config as LoopConfig);
    const [p, m, sl] = [loopOf(planner), loopOf(many), loopOf(slow)];
    expect(plans['chain:many'].calls.total).toBe(
      (p.calls.total.value as number) + 3 * (m.calls.total.value as number),
    );
    expect(plans['pairs:slow'].timeMs).toBe(
      (p.timeMs.value as number) + 2 * (sl.timeMs.value as number) + 900_000,
    );
    expect(plans['pairs:slow'].timeMs).toBeGreaterThan(plans['chain:slow'].timeMs as number);
  });

  it('the pipeline shape, once chosen, stays within its certificate', async () => {
    const steps: string[] = [];
    const costly: LoopConfig<string, string> = {
      // refine returns the next attempt's input: the second attempt is accepted
      attempt: ({ input }) => {
        steps.push('attempt');
        return withCost(input === 'better' ? 'good' : 'draft', 0.05);
      },
      validate: (candidate) =>
        withCost(
          candidate === 'draft'
            ? { valid: false, error: { severity: 'correctable', message: 'again' } }
            : { valid: true },
          0.01,
        ),
      refine: () => {
        steps.push('refine');
        return withCost('better', 0.05);
      },
      maxRetries: 1,
      costEstimates: { attempt: 0.05, validate: 0.01, refine: 0.05 },
      attemptTimeoutMs: 1_000,
      stepTimeoutMs: 1_000,
    };
    const chain = {
      stages: [
        { id: 'a', kind: 'costly' },
        { id: 'b', kind: 'costly', dependsOn: ['a'] },
        { id: 'c', kind: 'costly', dependsOn: ['b'] },
      ],
    };
    const store = new MemoryCheckpointStore();
    const agent = createAgent<string>({
      task,
      router: { modelCheck: complex, onDisagreement: 'ask' },
      planner: {
        // the first plan names an unknown kind: the planner is asked again
        plan: ({ attempt }) => {
          steps.push('plan');
          const plan = attempt === 1 ? { stages: [{ id: 'a', kind: 'nope' }] } : chain;
          return withCost(JSON.stringify(plan), 0.1);
        },
        maxStages: 3,
        loop: { costEstimates: { attempt: 0.1, validate: 0 } },
      },
      registry: { costly: { loop: costly } },
    });
    const paused = await runAgent(agent, request, { store, runId: 'chain' });
    const certificate = paused.choice?.candidates[1]?.certificate;
    if (certificate?.kind !== 'planned-pipeline') throw new Error('no pipeline certificate');
    const event = { type: 'shape.choose', shape: 'pipeline' } as const;
    const done = await resumeAgent(agent, { store, runId: 'chain', event });
    expect(done, done.message).toMatchObject({ status: 'completed', ok: true, shape: 'pipeline' });
    const stages = Object.values(done.pipeline?.stages ?? {});
    const spent =
      (done.planning?.outcome.cost ?? 0) + stages.reduce((sum, stage) => sum + stage.cost, 0);
    expect(steps).toEqual([
      'plan',
      'plan',
      ...['a', 'b', 'c'].flatMap(() => ['attempt', 'refine', 'attempt']),
    ]);
    expect(spent).toBeCloseTo(2 * 0.1 + 3 * (0.05 + 0.01 + 0.05 + 0.05 + 0.01), 10);
    expect(spent).toBeLessThanOrEqual(certificate.cost as number);
    const attempts = steps.filter((step) => step === 'plan' || step === 'attempt').length;
    expect(attempts).toBeLessThanOrEqual(certificate.calls.attempt as number);
    expect(certificate.calls.refine).toBeGreaterThanOrEqual(
      steps.filter((step) => step === 'refine').length,
    );
  });

  it('is stored with the run, and a checked answer runs the chosen shape', async () => {
    const store = new MemoryCheckpointStore();
    const agent = agentOf({ modelCheck: complex, onDisagreement: 'ask' });
    const paused = await runAgent(agent, request, { store, runId: 'vat' });
    const stored = await store.load('vat');
    expect(stored).toMatchObject({ status: 'paused', state: 'awaitingShapeChoice' });
    // JSON: a path step of a step with no declared cost costs Infinity, stored as null
    const json = JSON.parse(stored?.data ?? '');
    expect(json).toEqual(JSON.parse(JSON.stringify(paused.choice)));
    expect(json.candidates[0].certificate).toEqual(paused.choice?.candidates[0]?.certificate);

    const wrong = { type: 'shape.choose', shape: 'loop' } as const; // not a candidate
    await expect(resumeAgent(agent, { store, runId: 'vat', event: wrong })).rejects.toThrow(
      /shape\.choose.*'single-shot' \| 'pipeline'/,
    );
    expect(await store.load('vat')).toEqual(stored);

    const event = { type: 'shape.choose', shape: 'single-shot' } as const;
    const done = await resumeAgent(agent, { store, runId: 'vat', event });
    expect(done).toMatchObject({ status: 'proceed', shape: 'single-shot', ok: true });
    expect(done.decision?.decidedBy).toBe('owner');
    expect(done.trace.map((entry) => [entry.state, entry.status])).toEqual([
      ['routing', 'owner'],
      ['singleShot', 'proceed'],
    ]);
  });

  it("keeps today's behaviour by default: the model check decides, nobody is asked", async () => {
    const outcome = await runAgent(agentOf({ modelCheck: complex }), request);
    expect(outcome).toMatchObject({ status: 'completed', shape: 'pipeline' });
    expect(outcome.decision?.decidedBy).toBe('model');
    expect(outcome.decision?.disagreement).toBeUndefined();
    expect(outcome.choice).toBeUndefined();
  });

  it('runs without pausing when the heuristic and the model agree', async () => {
    const simple = { ask: () => 'simple' };
    const outcome = await runAgent(agentOf({ modelCheck: simple, onDisagreement: 'ask' }), request);
    expect(outcome).toMatchObject({ status: 'proceed', shape: 'single-shot' });
    expect(outcome.decision?.decidedBy).toBe('model');
    expect(outcome.trace.map((entry) => entry.state)).toEqual(['routing', 'singleShot']);
  });
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const childScript = join(root, 'test', 'agent', 'choiceChild.mjs');
let base: string;
let lib: string;

beforeAll(() => {
  ({ base, lib } = compileLibrary('choice', [
    'entries/index.ts',
    'entries/sqlite.ts',
    'entries/agent.ts',
  ]));
}, 60_000);
afterAll(() => {
  if (base) removeLibrary(base);
});

async function child(env: Record<string, string>) {
  const proc = spawn(process.execPath, [childScript], {
    env: { ...process.env, LIB: lib, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => (out += chunk));
  proc.stderr.on('data', (chunk) => (err += chunk));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const [code] = await once(proc, 'exit');
  clearTimeout(timer);
  expect(code, err).toBe(0);
  return JSON.parse(out);
}

const estimates = { attempt: 0.02, validate: 0.001 }; // the child's task

interface Entry {
  mode: 'run' | 'answer';
  run: string;
  type: 'ask' | 'task' | 'planner' | 'stage';
}

/** The child's agent, with steps that never run here: its certificates are the child's. */
const childStage: LoopConfig<string, unknown> = { attempt: () => ({}), validate: valid };
const childAgent = createAgent<string>({
  task: { attempt: () => '', validate: valid, maxRetries: 2, costEstimates: estimates },
  router: { modelCheck: complex, onDisagreement: 'ask' },
  planner: { plan: () => '' },
  registry: { lookup: { loop: childStage } },
});
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('a shape choice answered in another process', () => {
  it.each([
    ['pipeline', 1, ['planner', 'stage'], 'completed'],
    ['single-shot', 0, ['task'], 'proceed'],
  ] as const)('runs only the chosen shape: %s', async (shape, pick, steps, status) => {
    const work = mkdtempSync(join(base, 'choice-'));
    const db = join(work, 'runs.db');
    const common = { DB: db, WORK: work, RUN: `vat-${shape}` };

    const first = await child({ ...common, MODE: 'run' });
    expect(first).toMatchObject({ status: 'paused', shape: null, decidedBy: 'model' });
    const store = new SqliteCheckpointStore(db);
    const record = await store.load(common.RUN);
    store.close();
    const brief = JSON.parse(record?.data ?? '');
    expect(brief).toEqual(first.choice);
    // each shape's certificate is certify of what that shape runs (JSON: Infinity reads as null)
    const childTask = { attempt: () => '', validate: valid, costEstimates: estimates };
    expect(brief.candidates[0].certificate).toEqual(
      json(certifyLoop({ ...childTask, maxRetries: 0, maxAttempts: 1, stall: false })),
    );
    const planner = childAgent.config.planning?.loop.config as AnyLoopConfig;
    const largest = certifyPipeline(chainOf(planner, childStage as AnyLoopConfig, 12));
    expect(brief.candidates[1]).toMatchObject({ shape: 'pipeline', suggestedBy: 'model' });
    expect(brief.candidates[1].certificate).toEqual(
      json({
        kind: 'planned-pipeline',
        id: 'plannedPipeline',
        maxStages: 12,
        plans: { 'chain:lookup': largest },
        calls: largest.calls,
        crossChecks: 0,
        cost: largest.cost,
        timeMs: largest.timeMs,
        reachedBy: { calls: 'chain:lookup', cost: 'chain:lookup', timeMs: 'chain:lookup' },
        pauses: 'unbounded-by-design',
      }),
    );

    // a fresh process reads the brief from the store and answers with its candidate `pick`
    const second = await child({ ...common, MODE: 'answer', PICK: String(pick) });
    expect(second).toMatchObject({
      chosen: shape,
      status,
      shape,
      decidedBy: 'owner',
      choice: null,
    });
    expect(second.trace[0]).toEqual(['routing', 'owner']);

    const journal = readJournal<Entry>(work).map((entry) => `${entry.mode}:${entry.type}`);
    expect(journal).toEqual(['run:ask', ...steps.map((step) => `answer:${step}`)]);
  });
});
