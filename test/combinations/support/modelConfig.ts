/**
 * The combination's attempt as a Vercel AI SDK call through `modelSteps` (loopchart/ai), answered
 * by the SDK's `MockLanguageModelV3` from a script of replies: a ticket that matches the schema,
 * one that does not, prose, a refusal, a 429 with `retry-after-ms`, a 503, a 401, a 400, a call
 * that hangs until its signal aborts. Usage is the cost; the scripted judge checks usable tickets.
 */
import { Output } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LoopConfig } from 'loopchart';
import { modelSteps } from 'loopchart/ai';
import { z } from 'zod';
import { type Reply, scriptedModel } from '../../support/mockModel.js';
import { type Combination, type ModelReply, REPLY_TOKENS, RETRY_DELAY_MS } from './combination.js';
import { acted, asksWait, hung, type Ledger, reported } from './ledger.js';
import { type Ctx, judge, type Next } from './scriptedConfig.js';

const Ticket = z.object({
  summary: z.string().min(10),
  priority: z.enum(['low', 'normal', 'high']),
});

const tokens: [number, number] = [...REPLY_TOKENS];

function replyOf(reply: ModelReply, retryAfterMs: number): Reply {
  switch (reply) {
    case 'good':
      return { text: '{"summary": "Invoices page is down", "priority": "high"}', tokens };
    case 'mismatch':
      return { text: '{"summary": "down", "priority": "urgent"}', tokens };
    case 'prose':
      return { text: 'Sure! Here it is.', tokens };
    case 'refusal':
      return { text: "I can't help with that.", finish: 'content-filter', tokens };
    case 'rateLimited':
      return { status: 429, headers: { 'retry-after-ms': String(retryAfterMs) } };
    case 'overloaded':
      return { status: 503 };
    case 'denied':
      return { status: 401 };
    case 'badRequest':
      return { status: 400 };
    default:
      return 'hang';
  }
}

/** Replies that carry usage: a generation, whatever it said. */
const REPORTS_USAGE: ReadonlySet<ModelReply> = new Set(['good', 'mismatch', 'prose', 'refusal']);
/** A reply after which the model may have acted (it generated something, or may have). */
const MAY_HAVE_ACTED: ReadonlySet<ModelReply> = new Set([...REPORTS_USAGE, 'hang']);

/**
 * The model's replies are the world's: one script across every process of a run, played in
 * turn (the last repeats). Each call is ledgered by the attempt number its request carries.
 */
export function modelConfig(
  c: Combination,
  ledger: Ledger,
  next: Next,
): Pick<LoopConfig<unknown, unknown>, 'attempt' | 'validate' | 'classifyFailure' | 'idempotent'> {
  const { replies, retryAfterMs } = c.model;
  const played = [...replies, ...Array.from({ length: 200 }, () => replies.at(-1) as ModelReply)];
  const inner = scriptedModel(played.map((reply) => replyOf(reply, retryAfterMs))).model;
  const model = new MockLanguageModelV3({
    doGenerate: (options) => {
      const reply = played[ledger.modelCalls.length] as ModelReply;
      ledger.modelCalls.push({
        at: performance.now(),
        reply,
        ...(reply === 'rateLimited' ? { retryAfterMs } : {}),
      });
      if (MAY_HAVE_ACTED.has(reply)) acted(ledger, `attempt:${options.headers?.['x-attempt']}`);
      if (reply === 'hang') hung(ledger, 'attempt');
      if (reply === 'rateLimited') asksWait(ledger, retryAfterMs);
      if (reply === 'overloaded') asksWait(ledger, RETRY_DELAY_MS);
      return inner.doGenerate(options);
    },
  });
  const steps = modelSteps({
    call: (ctx: { input: unknown; attempt: number }) => {
      ledger.calls += 1;
      ledger.attemptCalls += 1;
      ledger.attemptNumbers.add(ctx.attempt);
      return {
        model,
        output: Output.object({ schema: Ticket }),
        prompt: `Make a ticket of: ${JSON.stringify(ctx.input)}`,
        headers: { 'x-attempt': String(ctx.attempt) },
      };
    },
    validate: (_ticket, ctx) => judge(c, ledger, next, ctx as unknown as Ctx),
    idempotent: c.idempotent.attempt,
  });
  return {
    attempt: async (ctx) => {
      const from = ledger.modelCalls.length;
      const result = await steps.attempt(ctx as never);
      // the usage the model reported for this attempt's calls, not what the adapter made of it
      const replied = ledger.modelCalls.slice(from).filter((call) => REPORTS_USAGE.has(call.reply));
      reported(ledger, ctx.signal, replied.length * (REPLY_TOKENS[0] + REPLY_TOKENS[1]));
      return result;
    },
    validate: steps.validate as LoopConfig<unknown, unknown>['validate'],
    classifyFailure: steps.classifyFailure,
    idempotent: { ...c.idempotent, ...steps.idempotent },
  };
}
