/**
 * Structured output: a model behind the Vercel AI SDK writes JSON with `Output.object`, and the
 * loop asks again with the schema's complaints until the JSON fits (the "reask" pattern), with no
 * glue code: `modelSteps` from `loopchart/ai` is the attempt and the validator.
 * - a reply that does not match the schema is a `correctable` verdict naming each path
 *   (`customer.email`, `priority`), put to the model in the next call with its previous answer;
 * - a rate limit (HTTP 429) is a transient failure: retried once on the same input after the
 *   `retry-after-ms` it asks for, and never pasted into the reask prompt;
 * - a refusal (finish reason `content-filter`) is `fundamental`: the loop ends at once;
 * - token usage is the loop's `cost`, the rejected replies included.
 * Runs offline: the model is the AI SDK's `MockLanguageModelV3` (from `ai/test`) with scripted replies.
 * Run it from a clone of the repository: `npm run example -- structured-output`.
 */
import { APICallError, Output } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { runLoop } from 'loopchart';
import { isUnusableOutput, modelSteps } from 'loopchart/ai';
import { z } from 'zod';

const Ticket = z.object({
  summary: z.string().min(10),
  priority: z.enum(['low', 'normal', 'high']),
  customer: z.object({ name: z.string(), email: z.email() }),
});

/** A scripted model: each call returns the next reply; `429` stands for a rate-limited call. */
function scriptedModel(replies: string[], finish: 'stop' | 'content-filter' = 'stop') {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const text = replies.shift() ?? '';
      if (text === '429') {
        throw new APICallError({
          message: 'Too Many Requests',
          url: 'https://api.example.invalid/v1/chat',
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { 'retry-after-ms': '50' },
          isRetryable: true,
        });
      }
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: finish, raw: finish },
        usage: {
          inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 40, text: 40, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

function extractTicket(model: MockLanguageModelV3, email: string) {
  const steps = modelSteps({
    call: ({ input }: { input: string }) => ({
      model,
      output: Output.object({ schema: Ticket }),
      prompt: `Turn this email into a support ticket (JSON: summary, priority, customer).\n\n${input}`,
    }),
  });
  return runLoop({ id: 'structuredOutput', maxRetries: 2, ...steps }, email);
}

/** The text the model was sent in its user messages, from its recorded call. */
function promptText(prompt: MockLanguageModelV3['doGenerateCalls'][number]['prompt'] | undefined) {
  const texts: string[] = [];
  for (const message of prompt ?? []) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  }
  return texts.join('\n');
}

const email = 'From: Dana Reyes <dana@example.com>\nOur invoices page has been down since 9am.';

const model = scriptedModel([
  '{"summary": "Invoices page down", "priority": "urgent", "customer": {"name": "Dana Reyes"}}',
  '429',
  '{"summary": "Invoices page down since 9am", "priority": "high", "customer": {"name": "Dana Reyes", "email": "dana@example.com"}}',
]);
const outcome = await extractTicket(model, email);
console.log(
  `${outcome.status} after ${outcome.iterations} reask(s), ${outcome.attempts} model calls, ${outcome.cost} tokens`,
);
const repairPrompt = promptText(model.doGenerateCalls.at(-1)?.prompt);
console.log(repairPrompt.slice(repairPrompt.indexOf('Your last answer')));
console.log(`the rate limit stayed out of the reask: ${!/429|Too Many/i.test(repairPrompt)}`);
if (outcome.status === 'proceed' && !isUnusableOutput(outcome.candidate)) {
  const ticket = outcome.candidate;
  console.log(`ticket: ${ticket.priority} priority, from ${ticket.customer.email}`);
}

const refusal = await extractTicket(
  scriptedModel(["I can't share customer data."], 'content-filter'),
  email,
);
console.log(`refusal: ${refusal.status} after ${refusal.attempts} model call(s)`);
