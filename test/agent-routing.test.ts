import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { isLoopConfigError } from 'loopchart';
import {
  type AgentConfig,
  createAgent,
  DEFAULT_SHAPE_RULES,
  type ModelCheckOptions,
  matchShapeRules,
  runAgent,
  type Shape,
} from 'loopchart/agent';
import { describe, expect, it } from 'vitest';

const task: AgentConfig['task'] = {
  attempt: ({ input }) => `answer: ${input}`,
  validate: () => ({ valid: true }),
};
const registry = {
  lookup: { loop: { attempt: () => 'row', validate: () => ({ valid: true }) } },
};
const onePlan = () => '{"stages":[{"id":"only","kind":"lookup"}]}';

describe('the heuristic tier', () => {
  it.each<[string, Shape, string[]]>([
    ['What is the capital of Australia?', 'single-shot', []],
    ['Compare the churn of Acme and Globex', 'pipeline', ['compare']],
    ['Acme vs. Globex on revenue', 'pipeline', ['compare']],
    ['For each region, name the top customer', 'pipeline', ['for-each']],
    ['Give me a Summary   TABLE of Q3 sales', 'pipeline', ['summary-table']],
    ['First find the March invoices, then total them', 'pipeline', ['first-then']],
    ['Draft a reply to this complaint', 'loop', ['produce']],
    ['The answer must cite at least two sources', 'loop', ['constraints']],
    ['Draft a comparison of the two offers', 'pipeline', ['compare', 'produce']],
    ['Which comparer tool do we use?', 'single-shot', []],
    ['Then first thing tomorrow', 'single-shot', []],
  ])('%j → %s (rules %j)', (request, shape, rules) => {
    const verdict = matchShapeRules(request, DEFAULT_SHAPE_RULES);
    expect(verdict.shape).toBe(shape);
    expect(verdict.matches.map((m) => m.rule)).toEqual(rules);
    expect(verdict.reasons).toHaveLength(Math.max(1, rules.length));
  });

  it('user rules come first, keep working when they carry a g flag, and can replace the built-ins', async () => {
    const rules = [
      {
        id: 'escalate',
        shape: 'loop' as const,
        match: /\bescalat\w*/gi,
        reason: 'escalations are checked',
      },
      {
        id: 'per-site',
        shape: 'pipeline' as const,
        match: 'per site',
        reason: 'one stage per site',
      },
    ];
    const agent = createAgent({ task, planner: { plan: onePlan }, registry, router: { rules } });
    for (let run = 0; run < 2; run++) {
      const outcome = await runAgent(agent, 'Please escalate ticket 9');
      expect(outcome.shape).toBe('loop');
      expect(outcome.decision?.reasons).toEqual([
        `rule 'escalate' matched "escalate" → loop: escalations are checked`,
      ]);
    }
    expect((await runAgent(agent, 'Uptime PER SITE last week')).shape).toBe('pipeline');

    const only = createAgent({
      task,
      router: { rules, defaultRules: false, defaultShape: 'loop' },
    });
    const plain = await runAgent(only, 'Compare A and B');
    expect(plain.shape).toBe('loop');
    expect(plain.decision?.reasons).toEqual(['no rule matched, so the default shape loop']);
  });

  it('without a planner a pipeline-shaped request runs as a loop, and says so', async () => {
    const outcome = await runAgent(createAgent({ task }), 'Compare A and B');
    expect(outcome.shape).toBe('loop');
    expect(outcome.decision?.reasons.at(-1)).toBe(
      'the agent has no planner, so a loop instead of a pipeline',
    );
  });
});

/** A model check whose `ask` is scripted; it records every call. */
function scriptedCheck(reply: ModelCheckOptions['ask'], options: Partial<ModelCheckOptions> = {}) {
  const calls: Parameters<ModelCheckOptions['ask']>[0][] = [];
  const check: ModelCheckOptions = {
    ...options,
    ask: (call) => {
      calls.push(call);
      return reply(call);
    },
  };
  return { check, calls };
}

describe('the model tier', () => {
  // defaultShape 'loop' makes the heuristic's answer differ from both model answers.
  const agentWith = (modelCheck: ModelCheckOptions) =>
    createAgent({
      task,
      planner: { plan: onePlan },
      registry,
      router: { modelCheck, defaultShape: 'loop' },
    });
  const unmatched = 'How many seats does the Berlin office have?';

  it.each<[string, Awaited<ReturnType<ModelCheckOptions['ask']>>, Shape, string, string]>([
    ['simple', 'simple', 'single-shot', 'model', 'answered'],
    ['complex', 'Complex.', 'pipeline', 'model', 'answered'],
    ['garbage', 'Well, it depends on what you mean by seats', 'loop', 'heuristic', 'garbage'],
    ['both words', 'simple or complex', 'loop', 'heuristic', 'garbage'],
    ['not text', { tokens: 3 } as never, 'loop', 'heuristic', 'garbage'],
    ['over its token cap', { text: 'simple', tokens: 40 }, 'loop', 'heuristic', 'over_budget'],
  ])('%s → %s', async (_, reply, shape, decidedBy, status) => {
    const { check, calls } = scriptedCheck(() => reply, { maxTokens: 16 });
    const outcome = await runAgent(agentWith(check), unmatched);
    expect(outcome.shape).toBe(shape);
    expect(outcome.decision?.decidedBy).toBe(decidedBy);
    expect(outcome.decision?.model?.status).toBe(status);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.maxTokens).toBe(16);
    expect(calls[0]?.prompt).toContain(unmatched);
    const reasons = outcome.decision?.reasons ?? [];
    expect(reasons[0]).toBe('no rule matched, so the default shape loop');
    expect(reasons.at(-1)).toMatch(
      decidedBy === 'model'
        ? /^the model check answered (simple|complex) → /
        : /; the heuristic decides$/,
    );
    expect(outcome.trace[0]?.rationale).toBe(reasons.join('; '));
  });

  it('a check past its time cap is abandoned (even if it ignores its signal) and the heuristic decides', async () => {
    const { check, calls } = scriptedCheck(() => new Promise(() => {}), { timeoutMs: 50 });
    const started = Date.now();
    const outcome = await runAgent(agentWith(check), unmatched);
    // a check never abandoned would hang the run; 10 s is room for a loaded machine
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.shape).toBe('loop');
    expect(outcome.decision?.model).toMatchObject({
      status: 'timeout',
      message: 'the model check took longer than 50 ms',
    });
    expect(outcome.decision?.model?.durationMs).toBeGreaterThanOrEqual(45);
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  it('a check that throws falls back to the heuristic', async () => {
    const { check } = scriptedCheck(() => {
      throw new Error('503 from the model');
    });
    const outcome = await runAgent(agentWith(check), unmatched);
    expect(outcome.shape).toBe('loop');
    expect(outcome.decision?.model?.message).toBe('the model check failed: 503 from the model');
  });

  it("is not asked when a rule matched, unless when: 'always'", async () => {
    const lazy = scriptedCheck(() => 'simple');
    expect((await runAgent(agentWith(lazy.check), 'Compare A and B')).decision?.decidedBy).toBe(
      'heuristic',
    );
    expect(lazy.calls).toHaveLength(0);
    const eager = scriptedCheck(() => 'simple', { when: 'always' });
    const outcome = await runAgent(agentWith(eager.check), 'Compare A and B');
    expect(eager.calls).toHaveLength(1);
    expect(outcome.shape).toBe('single-shot');
    expect(outcome.decision?.heuristic.shape).toBe('pipeline');
  });

  it('works as an AI SDK call: maxOutputTokens and the abort signal reach the model', async () => {
    const seen: { maxOutputTokens?: number; aborted?: boolean }[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen.push({
          maxOutputTokens: options.maxOutputTokens,
          aborted: options.abortSignal?.aborted,
        });
        return {
          content: [{ type: 'text', text: 'complex' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 60, noCache: 60, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const modelCheck: ModelCheckOptions = {
      maxTokens: 8,
      ask: async ({ prompt, maxTokens, signal }) => {
        const { text, usage } = await generateText({
          model,
          prompt,
          maxOutputTokens: maxTokens,
          abortSignal: signal,
          maxRetries: 0,
        });
        return {
          text,
          ...(usage.outputTokens === undefined ? {} : { tokens: usage.outputTokens }),
        };
      },
    };
    const outcome = await runAgent(agentWith(modelCheck), unmatched);
    expect(seen).toEqual([{ maxOutputTokens: 8, aborted: false }]);
    expect(outcome.decision?.model).toMatchObject({
      status: 'answered',
      answer: 'complex',
      tokens: 1,
    });
    expect(outcome.shape).toBe('pipeline');
  });
});

describe('the override', () => {
  it('skips both tiers and records what the heuristic would have chosen', async () => {
    const { check, calls } = scriptedCheck(() => 'complex', { when: 'always' });
    const agent = createAgent({
      task,
      planner: { plan: onePlan },
      registry,
      router: { modelCheck: check },
    });
    const outcome = await runAgent(agent, 'Compare A and B for each year', {
      shape: 'single-shot',
    });
    expect(calls).toHaveLength(0);
    expect(outcome).toMatchObject({ shape: 'single-shot', status: 'proceed', ok: true });
    expect(outcome.decision).toMatchObject({
      decidedBy: 'override',
      reasons: ['the caller chose single-shot', 'the heuristic alone would have chosen pipeline'],
    });
    expect(outcome.trace.map((entry) => [entry.state, entry.shape, entry.status])).toEqual([
      ['routing', 'single-shot', 'override'],
      ['singleShot', 'single-shot', 'proceed'],
    ]);
  });

  it('a bad override is refused before anything runs', async () => {
    await expect(runAgent(createAgent({ task }), 'q', { shape: 'pipeline' })).rejects.toThrow(
      'shape: pipeline needs an agent with a planner',
    );
    const error = await runAgent(createAgent({ task }), 'q', { shape: 'tree' as never }).catch(
      (e: unknown) => e,
    );
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'loopchart: invalid agent run\n  - shape: must be one of single-shot, loop, pipeline',
    );
  });
});

describe('the choice is visible while it runs', () => {
  it('an inspector sees the agent leave routing for the chosen shape, with the decision in its context', async () => {
    const seen: { value: unknown; shape?: string }[] = [];
    await runAgent(createAgent({ task }), 'Draft a memo', {
      inspect: (event) => {
        if (event.type !== '@xstate.snapshot') return;
        const snapshot = event.snapshot as {
          value?: unknown;
          context?: { request?: string; decision?: { shape: string } };
        };
        if (snapshot.context?.request === undefined) return; // a loop's own snapshot
        if (snapshot.context?.decision === undefined && snapshot.value !== 'routing') return;
        seen.push({
          value: snapshot.value,
          ...(snapshot.context?.decision ? { shape: snapshot.context.decision.shape } : {}),
        });
      },
    });
    expect(seen[0]).toEqual({ value: 'routing' });
    expect(seen).toContainEqual({ value: 'loop', shape: 'loop' });
  });
});
