/**
 * Issue 32, point 4: a path test calls the user's real `validate`, `refine` and `fallback` with
 * exactly the ctx a real run gives them. Every enumerated path of three config shapes is replayed
 * with recording steps, then run for real along the same events (the loop's own step actors build
 * each ctx, on simulated time, so a retry wait ends at the path's event for it); the two sequences
 * of step contexts must be equal, `ctx.error` included.
 */
import { createLoopMachine, type LoopConfig } from 'loopchart';
import { getLoopPaths, type LoopSamples, transitionCoverage } from 'loopchart/testing';
import { describe, expect, it } from 'vitest';
import { ctxText, realRunOfPath } from './support/realRunOfPath.js';

interface Ticket {
  text: string;
  hint?: string;
}
interface Triage {
  queue: 'billing' | 'bugs' | 'other';
  reason: string;
}

type Ctx = Readonly<Record<string, unknown>>;
const calls: Array<{ step: string; ctx: string }> = [];
const recorded = <F extends (...args: never[]) => unknown>(step: string, fn: F, at = 0) =>
  ((...args: Parameters<F>) => {
    calls.push({ step, ctx: ctxText(args[at] as unknown as Ctx) });
    return fn(...args);
  }) as F;

const triage = {
  attempt: ({ input }) => ({ queue: 'other', reason: input.text }),
  validate: (ticket) => {
    if (ticket.reason.length === 0)
      return { valid: false, error: { severity: 'fundamental', message: 'an empty ticket' } };
    if (ticket.queue === 'other')
      return {
        valid: false,
        error: { severity: 'correctable', message: `pick a queue for ${ticket.reason}` },
      };
    return { valid: true };
  },
  // reads ctx.error: it throws where a kit would call it without one
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
  fallback: ({ partial, error }) => ({
    queue: 'other',
    reason: `fallback after ${error?.message ?? 'no error'}: ${partial?.reason ?? ''}`,
  }),
} satisfies LoopConfig<Ticket, Triage>;

const samples: LoopSamples<Ticket, Triage> = {
  candidates: {
    valid: (n) => ({ queue: 'billing', reason: `invoice ${n}` }),
    correctable: (n) => ({ queue: 'other', reason: `unclear ${n}` }),
    fundamental: { queue: 'other', reason: '' },
  },
  edits: {
    input: { text: 'refund please' },
    candidate: { valid: { queue: 'billing', reason: 'edited' } },
  },
  answer: 'the March invoice',
};

const shapes: Array<[string, Partial<LoopConfig<Ticket, Triage>>]> = [
  [
    'review after failed validation, idempotent validate, fallback',
    { maxRetries: 1, idempotent: { validate: true }, review: { afterFailedValidation: true } },
  ],
  [
    'every step idempotent, stall after 2',
    {
      maxRetries: 2,
      idempotent: { attempt: true, validate: true, refine: true },
      stall: { after: 2 },
    },
  ],
  [
    'review before proceeding, no fallback',
    { maxRetries: 1, review: { beforeProceed: true }, fallback: undefined },
  ],
];

describe.each(shapes)('step contexts on every path: %s', (_name, shape) => {
  it('are the ones a real run gives, ctx.error included', async () => {
    const config = { ...triage, ...shape } as LoopConfig<Ticket, Triage>;
    const realSteps = {
      validate: recorded('validate', config.validate, 1),
      refine: recorded('refine', config.refine as NonNullable<typeof config.refine>),
      ...(config.fallback ? { fallback: recorded('fallback', config.fallback) } : {}),
    };
    const input = { text: 'my invoice is wrong' };
    const paths = getLoopPaths(createLoopMachine(config), { input, samples, realSteps });
    let compared = 0;
    let refinesAfterRetry = 0;
    const verdicts = { passed: 0, failed: 0, unrealisable: 0 };
    for (const path of paths) {
      calls.length = 0;
      const verdict = await path.test().catch((error: unknown) => {
        verdicts.failed += 1;
        throw error;
      });
      verdicts[verdict.verdict] += 1;
      // the real run waits out retries on the clock: a deadline cut-off is the kit's to feed
      if (path.steps.some((step) => step.label.includes('deadlineMs'))) continue;
      if (verdict.verdict !== 'passed') continue;
      const kit = [...calls];
      const before = ['attempting', ...path.steps.map((step) => step.state)];
      const real = await realRunOfPath(
        config as LoopConfig<unknown, unknown>,
        input,
        verdict.replay.events,
        before,
      );
      expect(real.outcome.status, path.description).toBe(path.status);
      expect(kit, path.description).toEqual(real.calls);
      for (const call of kit.filter((c) => c.step === 'refine')) {
        expect(JSON.parse(call.ctx).error, path.description).toBeDefined();
      }
      if (/retry wait → .*refine/.test(path.description)) refinesAfterRetry += 1;
      compared += 1;
    }
    const coverage = transitionCoverage(createLoopMachine(config), paths);
    console.log(
      `step contexts [${_name}]: ${compared} of ${paths.length} paths compared with a real run; verdicts ${JSON.stringify(verdicts)}; unrealisable transitions: ${coverage.unrealisableTransitions.map((edge) => edge.guard ?? edge.event).join(', ')}`,
    );
    // a correct loop: nothing fails; what the validator cannot give is listed apart, not covered
    expect(verdicts.failed).toBe(0);
    expect(coverage.failed).toEqual([]);
    expect(coverage.unrealisable).toHaveLength(verdicts.unrealisable - coverage.skipped.length);
    const apart = coverage.unrealisableTransitions.map((edge) => edge.guard);
    expect(apart).toEqual(expect.arrayContaining(['isMalformed', 'lacksDiagnostic']));
    expect(coverage.uncovered).toEqual(expect.arrayContaining(coverage.unrealisableTransitions));
    expect(compared).toBeGreaterThan(50);
    expect(refinesAfterRetry).toBeGreaterThan(0);
    // ~1,160 paths for the largest shape, each walked, replayed and run once for real: all CPU (no
    // timer is waited on), 22–49 s of wall time at load 11–12 on 2 cores
  }, 240_000);
});
