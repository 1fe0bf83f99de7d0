/**
 * Structured output: a model behind the Vercel AI SDK writes JSON, a zod schema checks it, and the
 * loop asks again with the schema's complaints until the JSON fits (the "reask" pattern).
 * - `schemaValidator(schema)` reads model text (```json blocks included) and turns zod's issues into
 *   `correctable` feedback that names each path (`customer.email`, `priority`);
 * - the attempt puts that feedback into the next prompt, and the model repairs its JSON;
 * - a rate limit (HTTP 429) is a transient failure: retried once on the same input after the delay
 *   it asks for, and never pasted into the reask prompt;
 * - a refusal holds no JSON at all: the validator's `fundamental` predicate ends the loop at once;
 * - `validate.parse(outcome.candidate)` gives back the typed object.
 * Runs offline: the model is the AI SDK's `MockLanguageModelV3` (from `ai/test`) with scripted replies.
 * Run it: `npm run example -- structured-output`.
 */
import { APICallError, generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { type FailureClassifier, runLoop, schemaValidator } from 'loopchart';
import { z } from 'zod';

const Ticket = z.object({
  summary: z.string().min(10),
  priority: z.enum(['low', 'normal', 'high']),
  customer: z.object({ name: z.string(), email: z.email() }),
});

/** A scripted model: each call returns the next reply; `429` stands for a rate-limited call. */
function scriptedModel(replies: string[]) {
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
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 40, text: 40, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

/** Rate limits and other retryable API errors are transient; the SDK says when nothing was done. */
const classifyFailure: FailureClassifier = (error) => {
  if (!APICallError.isInstance(error) || !error.isRetryable) return 'permanent';
  const retryAfterMs = Number(error.responseHeaders?.['retry-after-ms'] ?? 1000);
  return { kind: 'transient', effect: error.statusCode === 429 ? 'none' : 'unknown', retryAfterMs };
};

const validate = schemaValidator(Ticket, {
  // A reply without any JSON is a refusal: asking again with the same prompt will not help.
  fundamental: (issue) => issue.code === 'no_json',
});

async function extractTicket(model: MockLanguageModelV3, email: string) {
  return runLoop(
    {
      id: 'structuredOutput',
      maxRetries: 2,
      classifyFailure,
      attempt: async ({ input, feedback, signal }) => {
        const reask = feedback
          ? `\n\nYour last answer was rejected:\n${feedback.message}\nReply with the corrected JSON only.`
          : '';
        // maxRetries: 0 leaves retries to the loop, so they count against its ceilings and show in its trace.
        const { text } = await generateText({
          model,
          prompt: `Turn this email into a support ticket (JSON: summary, priority, customer).\n\n${input}${reask}`,
          maxRetries: 0,
          abortSignal: signal,
        });
        return text;
      },
      validate,
    },
    email,
  );
}

/** The text the model was sent, from its recorded call. */
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
  'Here is the ticket:\n```json\n{"summary": "Invoices page down", "priority": "urgent", "customer": {"name": "Dana Reyes"}}\n```',
  '429',
  '```json\n{"summary": "Invoices page down since 9am", "priority": "high", "customer": {"name": "Dana Reyes", "email": "dana@example.com"}}\n```',
]);
const outcome = await extractTicket(model, email);
console.log(
  `${outcome.status} after ${outcome.iterations} reask(s), ${outcome.attempts} model calls`,
);
const repairPrompt = promptText(model.doGenerateCalls.at(-1)?.prompt);
console.log(repairPrompt.slice(repairPrompt.indexOf('Your last answer')));
console.log(`the rate limit stayed out of the reask: ${!/429|Too Many/i.test(repairPrompt)}`);
if (outcome.status === 'proceed') {
  const ticket = await validate.parse(outcome.candidate);
  console.log(`ticket: ${ticket.priority} priority, from ${ticket.customer.email}`);
}

const refusal = await extractTicket(scriptedModel(["I can't share customer data."]), email);
console.log(`refusal: ${refusal.status} after ${refusal.attempts} model call(s)`);
