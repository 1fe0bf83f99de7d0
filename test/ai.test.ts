import { Output } from 'ai';
import { isLoopConfigError, type LoopOutcome, runLoop } from 'loopchart';
import { isUnusableOutput, modelSteps, type UnusableOutput } from 'loopchart/ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { promptOf, type Reply, scriptedModel } from './support/mockModel.js';

const Ticket = z.object({
  summary: z.string().min(10),
  priority: z.enum(['low', 'normal', 'high']),
});
type Ticket = z.infer<typeof Ticket>;

const good = '{"summary": "Invoices page is down", "priority": "high"}';
const badPriority = '{"summary": "Invoices page is down", "priority": "urgent"}';
const badBoth = '{"summary": "down", "priority": "urgent"}';

function ticketLoop(replies: Reply[], extra: Record<string, unknown> = {}) {
  const { model, calledAt } = scriptedModel(replies);
  const steps = modelSteps({
    call: ({ input }: { input: string }) => ({
      model,
      output: Output.object({ schema: Ticket }),
      prompt: `Make a ticket of: ${input}`,
    }),
  });
  const run = () => runLoop({ ...steps, maxRetries: 3, retryDelayMs: 0, ...extra }, 'the email');
  return { model, calledAt, steps, run };
}

describe('loopchart/ai: a generateText call as a loop step', () => {
  it('reasks twice with the schema issues, then proceeds with the typed object', async () => {
    const { model, run } = ticketLoop([badBoth, badPriority, good]);
    const outcome = await run();
    expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<Ticket | UnusableOutput>>();
    expect(outcome).toMatchObject({ status: 'proceed', iterations: 2, attempts: 3 });
    if (outcome.status !== 'proceed') throw new Error('no ticket');
    expectTypeOf(outcome.candidate).toEqualTypeOf<Ticket>();
    expect(outcome.candidate).toEqual({ summary: 'Invoices page is down', priority: 'high' });
    expect(promptOf(model, 0)).toBe('user: Make a ticket of: the email');
    expect(promptOf(model, 1)).toBe(
      [
        'user: Make a ticket of: the email',
        `assistant: ${badBoth}`,
        'user: Your last answer was rejected:',
        'The JSON does not match the schema (2 issues):',
        '- summary: Too small: expected string to have >=10 characters',
        '- priority: Invalid option: expected one of "low"|"normal"|"high"',
        'Reply with the corrected JSON only.',
      ].join('\n'),
    );
    expect(promptOf(model, 2)).toContain(
      'The JSON does not match the schema (1 issue):\n- priority: Invalid option',
    );
    const verdicts = outcome.trace.filter((e) => e.decision === 'refine');
    expect(verdicts).toHaveLength(2);
  });

  it('passes ctx.signal as abortSignal and turns the SDK retries off', async () => {
    const { model, run } = ticketLoop([good]);
    await run();
    expect(model.doGenerateCalls[0]?.abortSignal).toBeInstanceOf(AbortSignal);
    // maxRetries: 0 — a single 500 reaches the loop instead of being retried inside the SDK
    const failing = ticketLoop([{ status: 500 }, { status: 500 }]);
    const outcome = await failing.run();
    expect(failing.model.doGenerateCalls).toHaveLength(2);
    expect(outcome.status).toBe('retry_exhausted');
  });

  it('a 429 with retry-after-ms is retried once, after that delay, on the same input', async () => {
    const { calledAt, run } = ticketLoop([
      { status: 429, headers: { 'retry-after-ms': '150' } },
      good,
    ]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 2, iterations: 0 });
    const [first, second] = calledAt as [number, number];
    expect(second - first).toBeGreaterThanOrEqual(145);
    const [failed, retry, succeeded] = outcome.trace;
    expect(failed).toMatchObject({ failureKind: 'transient' });
    expect(retry).toMatchObject({ decision: 'retry' });
    expect(succeeded).toMatchObject({ state: 'attempting', intermittent: true, key: failed?.key });
  });

  it('a second 429 ends retry_exhausted, and error.cause keeps the status and retry headers', async () => {
    const limited = {
      status: 429,
      headers: { 'retry-after-ms': '10', 'x-ratelimit-remaining-requests': '0', 'set-cookie': 'x' },
    };
    const { run } = ticketLoop([limited, limited]);
    const outcome = await run();
    expect(outcome.status).toBe('retry_exhausted');
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.error.cause).toEqual({
      step: 'attempt',
      kind: 'transient',
      name: 'AI_APICallError',
      message: 'Too Many Requests',
      status: 429,
      headers: { 'retry-after-ms': '10', 'x-ratelimit-remaining-requests': '0' },
    });
    expect(JSON.parse(JSON.stringify(outcome.error.cause))).toEqual(outcome.error.cause);
  });

  it('401 is a policy stop, 400 a permanent failure: never retried', async () => {
    const denied = ticketLoop([{ status: 401 }]);
    expect((await denied.run()).status).toBe('policy_stop');
    const bad = ticketLoop([{ status: 400 }]);
    const outcome = await bad.run();
    expect(outcome.status).toBe('permanent_failure');
    expect(bad.model.doGenerateCalls).toHaveLength(1);
  });

  it('the same invalid reply again and again ends stalled, before the retries run out', async () => {
    const { model, run } = ticketLoop([badPriority, badPriority, badPriority, badPriority]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'stalled', attempts: 3, iterations: 2 });
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it('a retry-after over maxRetryDelayMs (60 s by default) ends retry_exhausted at once', async () => {
    const { model, run } = ticketLoop([{ status: 429, headers: { 'retry-after': '120' } }, good]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'retry_exhausted', attempts: 1 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('a refusal ends terminate_with_partial after one call, with the refusal as the partial', async () => {
    const { model, run } = ticketLoop([
      { text: "I can't help with that.", finish: 'content-filter' },
    ]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'terminate_with_partial', attempts: 1 });
    expect(model.doGenerateCalls).toHaveLength(1);
    if (outcome.status !== 'terminate_with_partial') throw new Error('unexpected');
    expect(isUnusableOutput(outcome.partial) && outcome.partial.kind).toBe('refusal');
    expect(outcome.error.message).toContain('The model refused to answer');
  });

  it('a generation that times out is retried (a generation is idempotent)', async () => {
    const { model, run } = ticketLoop(['hang', good], { attemptTimeoutMs: 50 });
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 2 });
    expect(outcome.trace[0]).toMatchObject({ failureKind: 'transient' });
    expect(model.doGenerateCalls[0]?.abortSignal?.aborted).toBe(true);
  });

  it('sums token usage into cost, failed calls included', async () => {
    const { run } = ticketLoop([
      { text: badBoth, tokens: [100, 20] },
      { status: 429, headers: { 'retry-after-ms': '0' } },
      { text: good, tokens: [150, 30] },
    ]);
    const outcome = await run();
    expect(outcome.status).toBe('proceed');
    expect(outcome.cost).toBe(120 + 180);
    expect(outcome.trace.filter((e) => e.cost !== undefined).map((e) => e.cost)).toEqual([
      120, 180,
    ]);
  });

  it('a cost function prices the calls; maxCost stops the loop', async () => {
    const { model } = scriptedModel([badBoth, badBoth, badBoth, good]);
    const steps = modelSteps({
      call: () => ({ model, output: Output.object({ schema: Ticket }), prompt: 'ticket' }),
      cost: (usage) => ((usage.inputTokens ?? 0) * 3 + (usage.outputTokens ?? 0) * 15) / 1e6,
    });
    const outcome = await runLoop({ ...steps, maxRetries: 5, maxCost: 0.001 }, 'x');
    expect(outcome.status).toBe('budget_stop');
    expect(outcome.attempts).toBe(2);
    expect(outcome.cost).toBeCloseTo((2 * (100 * 3 + 20 * 15)) / 1e6, 12);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('a plain text generation: the candidate is the text, checked by your validate', async () => {
    const { model } = scriptedModel(['too long an answer', 'short']);
    const steps = modelSteps({
      call: ({ input }: { input: string }) => ({ model, prompt: input }),
      validate: (text) =>
        text.length <= 5
          ? { valid: true }
          : { valid: false, error: { severity: 'correctable', message: 'at most 5 characters' } },
    });
    const outcome = await runLoop({ ...steps, maxRetries: 1 }, 'Say hi');
    expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<string | UnusableOutput>>();
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'short' });
    expect(promptOf(model, 1)).toBe(
      [
        'user: Say hi',
        'assistant: too long an answer',
        'user: Your last answer was rejected:',
        'at most 5 characters',
        'Reply with a corrected answer.',
      ].join('\n'),
    );
  });

  it('a reply that is not JSON is correctable and reasked', async () => {
    const { model, run } = ticketLoop(['Sure! Here it is.', good]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'proceed', iterations: 1 });
    expect(promptOf(model, 1)).toContain('The reply is not valid JSON.');
  });

  it('bad options are a config error naming the field', () => {
    let error: unknown;
    try {
      modelSteps({ call: 'nope' as never, idempotent: 'yes' as never });
    } catch (e) {
      error = e;
    }
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toMatchInlineSnapshot(`
      "loopchart: invalid modelSteps options
        - call: must be a function
        - idempotent: must be true or false"
    `);
  });
});

describe('an unusable reply in a checkpoint', () => {
  it('is still recognised after the JSON round trip a checkpoint makes', async () => {
    const { unusableOutput } = await import('../src/adapters/ai/unusableOutput.js');
    const reply = unusableOutput('schema_mismatch', '{"n":"x"}', 'did not match', 'stop');
    const restored: unknown = JSON.parse(JSON.stringify(reply));
    expect(isUnusableOutput(restored)).toBe(true);
    expect(isUnusableOutput({ kind: 'schema_mismatch', text: '', message: '' })).toBe(false);
  });
});
