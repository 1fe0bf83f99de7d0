/**
 * Issue 32, point 2: seeded bugs in a user's steps, each caught by path mode and reported with
 * its path, the step and the input it broke on. The same loop with correct steps passes. The
 * family's two bugs no path script can show (an attempt that changes its input in place, a step
 * that ignores its abort signal) are executed mode's: path-executed.test.ts names and catches them.
 */
import { createLoopMachine, type LoopConfig } from 'loopchart';
import { getLoopPaths, type LoopPathOptions, type LoopSamples } from 'loopchart/testing';
import { describe, expect, it } from 'vitest';

interface Ticket {
  text: string;
  hint?: string;
}
interface Triage {
  queue: 'billing' | 'other';
  reason: string;
}

const correct = {
  maxRetries: 2,
  attempt: ({ input }) => ({ queue: 'other', reason: input.text }),
  validate: (ticket) =>
    ticket.queue === 'other'
      ? {
          valid: false,
          error: { severity: 'correctable', message: `pick a queue: ${ticket.reason}` },
        }
      : { valid: true },
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
  fallback: ({ partial }) => ({ queue: 'other', reason: `by hand: ${partial?.reason ?? ''}` }),
} satisfies LoopConfig<Ticket, Triage>;

const samples: LoopSamples<Ticket, Triage> = {
  candidates: {
    valid: (n) => ({ queue: 'billing', reason: `invoice ${n}` }),
    correctable: (n) => ({ queue: 'other', reason: `unclear ${n}` }),
  },
};

// the user's own property: a refined input carries the validator's feedback
const onStep: LoopPathOptions<Ticket, Triage>['onStep'] = (step) => {
  if (step.label === 'refine' && step.input.hint === undefined)
    throw new Error('the refined input lost the feedback');
};

let refines = 0;
const bugs: Array<[string, Partial<LoopConfig<Ticket, Triage>>, RegExp]> = [
  [
    'refine ignores feedback',
    { refine: ({ input }) => ({ ...input }) },
    /onStep after step \d+ \(refine: input \{"text":"my invoice is wrong"\}.*threw Error: the refined input lost the feedback/,
  ],
  [
    'refine throws on its second call',
    {
      refine: ({ input, error }) => {
        refines += 1;
        if (refines % 2 === 0) throw new RangeError('second call');
        return { ...input, hint: error.message };
      },
    },
    /refine threw RangeError: second call on .*samples\.candidates\.correctable \(n = \d+: /,
  ],
  [
    'fallback returns undefined',
    { fallback: () => undefined as unknown as Triage },
    /fallback returned undefined, which is no candidate.* on samples\.candidates\.correctable \(n = 3: /,
  ],
  [
    'validator returns a malformed verdict on one branch',
    {
      validate: (ticket) =>
        ticket.reason === 'unclear 2' ? ({ ok: false } as never) : correct.validate(ticket),
    },
    /validate gave a malformed verdict for samples\.candidates\.correctable \(n = 2: \{"queue":"other","reason":"unclear 2"\}\); the path expected a correctable error/,
  ],
  [
    'refine mutates its input',
    {
      refine: ({ input, error }) => {
        (input as Ticket).hint = error.message;
        return input;
      },
    },
    /refine changed its ctx in place on .*samples\.candidates\.correctable \(n = 1: /,
  ],
];

async function verdicts(config: LoopConfig<Ticket, Triage>) {
  refines = 0;
  const paths = getLoopPaths(createLoopMachine(config), {
    input: { text: 'my invoice is wrong' },
    samples,
    realSteps: config,
    onStep,
    detours: 0,
  });
  const failed: Array<{ path: string; message: string }> = [];
  for (const path of paths) {
    await path.test().catch((error: unknown) => {
      failed.push({ path: path.description, message: String(error) });
    });
  }
  return { paths, failed };
}

// every path replayed with real steps, all CPU: over the 30 s default at load 15 on 2 cores
describe('seeded bugs in the user steps', { timeout: 120_000 }, () => {
  it('the correct steps pass every path', async () => {
    const { paths, failed } = await verdicts(correct);
    expect(paths.length).toBeGreaterThan(20);
    expect(failed).toEqual([]);
  });

  it.each(bugs)(
    '%s: reported with its path, the step and the input',
    async (_bug, change, report) => {
      const { failed } = await verdicts({ ...correct, ...change } as LoopConfig<Ticket, Triage>);
      expect(failed.length).toBeGreaterThan(0);
      const first = failed[0] as { path: string; message: string };
      expect(first.message).toMatch(report);
      expect(first.message).toContain(`path: ${first.path}`);
      expect(first.message).toMatch(/at step \d+/);
    },
  );
});
