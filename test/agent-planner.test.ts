import { transientFailure } from 'loopchart';
import {
  checkPlan,
  createAgent,
  type PlannerContext,
  type PlannerOptions,
  runAgent,
  type StageRegistry,
} from 'loopchart/agent';
import type { PipelineEmitted } from 'loopchart/pipeline';
import { describe, expect, it } from 'vitest';
import { counted, valid } from './support/scriptedSteps.js';

const revenue: Record<string, number> = { acme: 1200, globex: 800 };

/** lookup reads one company's revenue; compare and table read their dependencies' results. */
const registry: StageRegistry = {
  lookup: {
    description: 'reads the Q3 revenue of params.company',
    input: ({ params }) => params.company,
    loop: {
      attempt: ({ input }) => ({ company: input, revenue: revenue[String(input)] }),
      validate: () => valid,
    },
  },
  compare: {
    description: 'ranks the companies its dependencies looked up',
    input: ({ results }) => Object.values(results),
    loop: {
      attempt: ({ input }) =>
        (input as { company: string; revenue: number }[])
          .sort((a, b) => b.revenue - a.revenue)
          .map((row) => row.company),
      validate: () => valid,
    },
  },
  table: {
    description: 'writes the summary table',
    input: ({ results }) => results,
    loop: { attempt: ({ input }) => `| rank | ${JSON.stringify(input)} |`, validate: () => valid },
  },
};
const task = { attempt: () => 'unused', validate: () => valid };

const stage = (id: string, kind: string, dependsOn: string[] = [], extra = {}) => ({
  id,
  kind,
  dependsOn,
  ...extra,
});
const goodPlan = {
  stages: [
    stage('table', 'table', ['rank']),
    stage('rank', 'compare', ['globex', 'acme'], { checkpoint: false }),
    stage('globex', 'lookup', [], { params: { company: 'globex' } }),
    stage('acme', 'lookup', [], { params: { company: 'acme' } }),
  ],
};
const withCycle = {
  stages: [
    stage('acme', 'lookup', ['table']),
    stage('rank', 'compare', ['acme']),
    stage('table', 'table', ['rank']),
  ],
};
const withUnknownKind = { stages: [stage('acme', 'scrape'), stage('rank', 'compare', ['acme'])] };

function scriptedPlanner(replies: unknown[], options: Partial<PlannerOptions> = {}) {
  const plan = counted((n: number, _ctx: PlannerContext) => {
    const reply = replies[Math.min(n, replies.length) - 1];
    return typeof reply === 'string'
      ? reply
      : `Here is the plan:\n\`\`\`json\n${JSON.stringify(reply)}\n\`\`\``;
  });
  return { planner: { ...options, plan }, plan };
}

describe('a planner that repairs its plan', () => {
  it('a cycle, then an unknown kind, then a valid plan: two refines whose feedback names them, then layers', async () => {
    const { planner, plan } = scriptedPlanner([withCycle, withUnknownKind, goodPlan]);
    const events: PipelineEmitted[] = [];
    const agent = createAgent({ task, planner, registry });
    const outcome = await runAgent(
      agent,
      'Compare the Q3 revenue of Acme and Globex in a summary table',
      {
        onEvent: (event) => events.push(event),
      },
    );

    expect(plan.calls).toBe(3);
    const contexts = plan.args.map(([ctx]) => ctx);
    expect(contexts.map((ctx) => ctx.attempt)).toEqual([1, 2, 3]);
    expect(contexts[0]?.feedback).toBeUndefined();
    expect(contexts[0]?.instructions).toContain('- lookup: reads the Q3 revenue of params.company');
    expect(contexts[1]?.problems).toEqual(['dependsOn has a cycle: acme → rank → table → acme']);
    expect(contexts[1]?.feedback).toBe(
      'The plan was rejected (1 problem):\n- dependsOn has a cycle: acme → rank → table → acme\nReply with the corrected plan as JSON only.',
    );
    expect(contexts[2]?.problems).toEqual([
      "stage 'acme' has the unknown kind 'scrape' (known kinds: lookup, compare, table)",
    ]);

    expect(outcome.planning?.outcome).toMatchObject({
      status: 'proceed',
      iterations: 2,
      attempts: 3,
    });
    expect(outcome).toMatchObject({ shape: 'pipeline', status: 'completed', ok: true });
    const layers = Object.fromEntries(
      Object.entries(outcome.pipeline?.stages ?? {}).map(([id, s]) => [id, s.layer]),
    );
    expect(layers).toEqual({ acme: 1, globex: 1, rank: 2, table: 3 });
    const starts = events.filter((e) => e.type === 'pipeline.stage.started').map((e) => e.stage);
    expect(starts).toEqual(['acme', 'globex', 'rank', 'table']);
    const finishedBefore = (id: string, other: string) =>
      events.findIndex((e) => e.type === 'pipeline.stage.finished' && e.stage === id) <
      events.findIndex((e) => e.type === 'pipeline.stage.started' && e.stage === other);
    expect(finishedBefore('acme', 'rank') && finishedBefore('globex', 'rank')).toBe(true);
    expect(finishedBefore('rank', 'table')).toBe(true);
    const results = outcome.pipeline?.status === 'completed' ? outcome.pipeline.results : {};
    expect(results.rank).toEqual(['acme', 'globex']);
    expect(outcome.trace.map((e) => [e.state, e.status])).toEqual([
      ['routing', 'heuristic'],
      ['planning', 'proceed'],
      ['pipeline', 'completed'],
    ]);
    expect(outcome.trace[1]?.rationale).toBe(
      'plan accepted after 2 refine(s): table, rank, globex, acme',
    );
  });
});

describe('the plan check', () => {
  const check = (value: unknown, maxStages = 12) => checkPlan(value, registry, maxStages);
  it.each<[string, unknown, string[]]>([
    [
      'a missing dependency',
      { stages: [stage('rank', 'compare', ['acme'])] },
      ["stage 'rank' depends on 'acme', which is not a stage of this plan (stages: rank)"],
    ],
    [
      'a duplicate id',
      { stages: [stage('acme', 'lookup'), stage('acme', 'lookup')] },
      ["duplicate stage id 'acme' (stages.0 has it too)"],
    ],
    [
      'a stage on itself',
      { stages: [stage('acme', 'lookup', ['acme'])] },
      ["stage 'acme' depends on itself"],
    ],
    [
      'no JSON',
      'I would first look up both companies.',
      ['The reply holds no JSON value; answer with the JSON only.'],
    ],
    ['no stages', { steps: [] }, ['plan.stages: must be an array of stages']],
    [
      'a bad id and kind',
      { stages: [{ id: '1st', kind: 7 }] },
      [
        'plan.stages.0.id: must be a letter followed by up to 63 letters, digits, _ or -',
        'plan.stages.0.kind: must be the name of a stage kind',
      ],
    ],
    [
      'too many stages',
      { stages: [stage('a', 'lookup'), stage('b', 'lookup'), stage('c', 'lookup')] },
      ['the plan has 3 stages; at most 2 are allowed'],
    ],
    [
      'a kind from the prototype',
      { stages: [stage('a', 'constructor')] },
      ["stage 'a' has the unknown kind 'constructor' (known kinds: lookup, compare, table)"],
    ],
  ])('%s is a problem that names it', (_, value, problems) => {
    expect(check(value, 2)).toEqual({ ok: false, problems });
  });

  it('accepts depends_on, drops unknown keys, and fills defaults', () => {
    const reply =
      '```json\n{"stages":[{"id":"a","kind":"lookup","note":"x"},{"id":"b","kind":"table","depends_on":["a"],"checkpoint":true}]}\n```';
    expect(check(reply)).toEqual({
      ok: true,
      document: {
        stages: [
          { id: 'a', kind: 'lookup', dependsOn: [], checkpoint: false, params: {} },
          { id: 'b', kind: 'table', dependsOn: ['a'], checkpoint: true, params: {} },
        ],
      },
    });
  });
});

describe('a planner that never repairs', () => {
  const broken = (n: number) => ({ stages: [stage('acme', `scrape${n}`)] });

  it('ends iteration_exhausted after its budget, and no pipeline runs', async () => {
    const { planner, plan } = scriptedPlanner([broken(1), broken(2), broken(3), broken(4)], {
      loop: { maxRetries: 2 },
    });
    const outcome = await runAgent(
      createAgent({ task, planner, registry }),
      'Compare Acme and Globex',
    );
    expect(plan.calls).toBe(3);
    expect(outcome).toMatchObject({ shape: 'pipeline', status: 'iteration_exhausted', ok: false });
    expect(outcome.message).toMatch(/^no plan was accepted: /);
    expect(outcome.planning?.outcome).toMatchObject({
      status: 'iteration_exhausted',
      iterations: 2,
    });
    expect(outcome.pipeline).toBeUndefined();
    expect(outcome.plan).toBeUndefined();
    expect(outcome.trace.map((e) => e.state)).toEqual(['routing', 'planning']);
  });

  it('one that repeats the same broken plan is stopped as stalled before the budget is spent', async () => {
    const { planner, plan } = scriptedPlanner([withCycle], { loop: { maxRetries: 5 } });
    const outcome = await runAgent(
      createAgent({ task, planner, registry }),
      'Compare Acme and Globex',
    );
    expect(plan.calls).toBe(3);
    expect(outcome.status).toBe('stalled');
  });

  it('with a fallback plan, the fallback runs the pipeline', async () => {
    const fallback = counted(() => goodPlan);
    const { planner } = scriptedPlanner([broken(1), broken(2)], {
      loop: { maxRetries: 1 },
      fallback,
    });
    const outcome = await runAgent(
      createAgent({ task, planner, registry }),
      'Compare Acme and Globex',
    );
    expect(fallback.calls).toBe(1);
    expect(outcome.planning?.outcome.status).toBe('fallback');
    expect(outcome).toMatchObject({ status: 'completed', ok: true });
    expect(outcome.plan?.stages.map((s) => s.id)).toEqual(['table', 'rank', 'globex', 'acme']);
  });

  it('a fallback plan that does not fit ends terminate_with_partial, naming the problem', async () => {
    const { planner } = scriptedPlanner([broken(1)], {
      loop: { maxRetries: 0 },
      fallback: () => withCycle,
    });
    const outcome = await runAgent(
      createAgent({ task, planner, registry }),
      'Compare Acme and Globex',
    );
    expect(outcome).toMatchObject({ status: 'terminate_with_partial', ok: false });
    expect(outcome.message).toBe(
      "the planner's fallback plan was rejected: dependsOn has a cycle: acme → rank → table → acme",
    );
  });

  it('a transient planner failure is retried once on the same input (planning is idempotent)', async () => {
    const plan = counted((n: number) => {
      if (n === 1) throw transientFailure('429', { effect: 'unknown', retryAfterMs: 5 });
      return goodPlan;
    });
    const outcome = await runAgent(
      createAgent({ task, planner: { plan }, registry }),
      'Compare Acme and Globex',
    );
    expect(plan.calls).toBe(2);
    expect(outcome.planning?.outcome).toMatchObject({
      status: 'proceed',
      attempts: 2,
      iterations: 0,
    });
    expect(outcome.status).toBe('completed');
  });

  it('a planner that throws ends as its loop classifies it (permanent by default)', async () => {
    const planner = {
      plan: () => {
        throw new Error('model unavailable');
      },
    };
    const outcome = await runAgent(
      createAgent({ task, planner, registry }),
      'Compare Acme and Globex',
    );
    expect(outcome.status).toBe('permanent_failure');
    expect(
      outcome.planning?.outcome.status === 'permanent_failure' &&
        outcome.planning.outcome.error.cause?.message,
    ).toBe('model unavailable');
  });
});
