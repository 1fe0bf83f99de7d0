import { z } from 'zod';
import { schemaValidator } from '../../../../adapters/schemaValidator/schemaValidator.js';
import { transientFailure } from '../../../../core/vocabulary/failures.js';
import type { ValidationResult } from '../../../../core/vocabulary/validation.js';
import { type DemoScenario, defineScenario, latency } from '../DemoScenario.js';

const Invoice = z.object({
  vendor: z.string().min(1),
  total: z.number().positive(),
  currency: z.enum(['EUR', 'USD', 'GBP']),
  lines: z.array(z.object({ item: z.string(), amount: z.number() })).min(1),
});

/** A scripted model: its replies in order; `429` stands for a rate-limited call. */
function scriptedModel(replies: readonly string[]) {
  let call = 0;
  return async (signal: AbortSignal): Promise<string> => {
    await latency(90, signal);
    const reply = replies[Math.min(call, replies.length - 1)] ?? '';
    call += 1;
    if (reply === '429') {
      throw transientFailure('429 Too Many Requests', { effect: 'none', retryAfterMs: 150 });
    }
    return reply;
  };
}

const headlineJudge =
  (limit: number) =>
  async (headline: string): Promise<ValidationResult> =>
    headline.length <= limit
      ? { valid: true }
      : {
          valid: false,
          error: {
            severity: 'correctable',
            message: `the headline has ${headline.length} characters; at most ${limit} fit`,
          },
        };

/** Loops around scripted language models: the reask pattern, a stall and a fallback. */
export function modelScenarios(): DemoScenario[] {
  const invoiceModel = scriptedModel([
    'Here is the invoice:\n```json\n{"vendor": "Acme GmbH", "total": "1,280.00", "currency": "EUR"}\n```',
    '429',
    '```json\n{"vendor": "Acme GmbH", "total": 1280, "currency": "EUR", "lines": [{"item": "Audit", "amount": 1280}]}\n```',
  ]);
  const stubbornModel = scriptedModel([
    'Regional hospital network reports record quarter for outpatient surgery volumes',
  ]);
  const driftingModel = scriptedModel([
    'Hospital network posts record outpatient surgery quarter across all regions',
    'Record outpatient surgery quarter for the regional hospital network',
    'Hospital network: record quarter for outpatient surgeries',
  ]);
  return [
    defineScenario({
      name: 'structured-output',
      expected: 'proceed',
      title: 'Structured output: invoice JSON checked by a zod schema',
      shows:
        'schemaValidator feeds issue paths back (reask); a rate limit is retried once, never fed back',
      config: {
        id: 'structuredOutput',
        maxRetries: 2,
        attempt: ({ signal }) => invoiceModel(signal),
        validate: schemaValidator(Invoice),
      },
      input: 'Extract the invoice as JSON: vendor, total, currency, lines.',
    }),
    defineScenario({
      name: 'headline-stalled',
      expected: 'stalled',
      title: 'Stall detection: a model that ignores the feedback',
      shows: 'the same headline and the same verdict three times: stalled, retries left unspent',
      config: {
        id: 'headline',
        maxRetries: 5,
        attempt: ({ signal }) => stubbornModel(signal),
        validate: headlineJudge(48),
      },
      input: 'Write a headline of at most 48 characters.',
    }),
    defineScenario({
      name: 'headline-fallback',
      expected: 'fallback',
      title: 'Fallback: the retry budget runs out',
      shows: 'new drafts, each still too long: 2/2 refines spent, then the fallback template',
      config: {
        id: 'headline',
        maxRetries: 2,
        attempt: ({ signal }) => driftingModel(signal),
        validate: headlineJudge(32),
        fallback: () => 'Record outpatient quarter',
      },
      input: 'Write a headline of at most 32 characters.',
    }),
  ];
}
