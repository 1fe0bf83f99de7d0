/**
 * Issue 32, point 1: a correct loop gets no false failure from its path tests, whatever its
 * shape. 200 configs drawn (seeded) across review, clarification, fallback, stall, transient
 * failures and `maxCost`, each with correct steps of the user's own; every config's paths are
 * enumerated and a sample of them tested (one per terminal status, plus every path that resubmits
 * a draft or stalls, which are where a kit invents verdicts a validator cannot give).
 */
import fc from 'fast-check';
import { createLoopMachine, type LoopConfig } from 'loopchart';
import { getLoopPaths, type LoopPath, type LoopSamples } from 'loopchart/testing';
import { describe, expect, it } from 'vitest';

interface Ticket {
  text: string;
  hint?: string;
}
interface Triage {
  queue: 'billing' | 'other';
  reason: string;
}

const steps = {
  attempt: ({ input }) => ({ queue: 'other', reason: input.text }),
  validate: (ticket) => {
    if (ticket.reason.length === 0)
      return { valid: false, error: { severity: 'fundamental', message: 'an empty ticket' } };
    if (ticket.queue === 'other')
      return {
        valid: false,
        error: { severity: 'correctable', message: `pick a queue: ${ticket.reason}` },
      };
    return { valid: true };
  },
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
  fallback: ({ partial }) => ({ queue: 'other', reason: `by hand: ${partial?.reason ?? ''}` }),
} satisfies LoopConfig<Ticket, Triage>;

const shapeOf = fc.record({
  maxRetries: fc.integer({ min: 0, max: 2 }),
  review: fc.constantFrom(false, { beforeProceed: true }, { afterFailedValidation: true }),
  fallback: fc.boolean(),
  stall: fc.constantFrom(false, { after: 2 }, { after: 3 }, { after: 2, on: 'verdict' as const }),
  idempotent: fc.constantFrom(false, { validate: true }, true),
  maxCost: fc.constantFrom(undefined, 5),
  answers: fc.boolean(),
});

const configs = fc.sample(shapeOf, { seed: 32, numRuns: 200 });

function pick<C>(paths: LoopPath<C>[]): LoopPath<C>[] {
  const byStatus = new Map<string, LoopPath<C>>();
  for (const path of paths) if (!byStatus.has(path.status)) byStatus.set(path.status, path);
  const risky = paths.filter((path) => /same|stall/.test(path.description)).slice(0, 3);
  return [...new Set([...byStatus.values(), ...risky])];
}

describe('200 correct configs', () => {
  it('get no false failure on any tested path', async () => {
    const failures: string[] = [];
    let tested = 0;
    let enumerated = 0;
    for (const shape of configs) {
      const { fallback, answers, maxCost, ...rest } = shape;
      const config = {
        ...steps,
        ...rest,
        ...(maxCost === undefined ? {} : { maxCost }),
        ...(fallback ? {} : { fallback: undefined }),
      } as LoopConfig<Ticket, Triage>;
      const samples: LoopSamples<Ticket, Triage> = {
        candidates: {
          valid: (n) => ({ queue: 'billing', reason: `invoice ${n}` }),
          correctable: (n) => ({ queue: 'other', reason: `unclear ${n}` }),
          fundamental: { queue: 'other', reason: '' },
        },
        edits: {
          input: { text: 'refund' },
          candidate: { valid: { queue: 'billing', reason: 'ok' } },
        },
        ...(answers ? { answer: 'the March invoice' } : {}),
      };
      const paths = getLoopPaths(createLoopMachine(config), {
        input: { text: 'my invoice is wrong' },
        samples,
        realSteps: config,
        detours: 0,
      });
      enumerated += paths.length;
      for (const path of pick(paths)) {
        tested += 1;
        await path.test().catch((error: unknown) => {
          failures.push(`${JSON.stringify(shape)}: ${String(error)}`);
        });
      }
    }
    console.log(
      `200 configs: ${enumerated} paths enumerated, ${tested} tested, ${failures.length} failed`,
    );
    expect(new Set(configs.map((shape) => JSON.stringify(shape))).size).toBeGreaterThan(150);
    expect(tested).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 240_000);
});
