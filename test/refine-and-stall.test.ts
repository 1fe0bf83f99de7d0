import { type LoopConfig, runLoop, type StepContext } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable, counted, valid } from './support/scriptedSteps.js';

const maxRetries = 5;

describe('a candidate that becomes valid after N refines', () => {
  it.each(Array.from({ length: maxRetries + 1 }, (_, n) => n))(
    'ends as proceed with iterations === %i, even when the validator repeats its message',
    async (n) => {
      const refine = counted(
        (_call, ctx: { input: string; error: { message: string } }) => `${ctx.input}+`,
      );
      const outcome = await runLoop<string, string>(
        {
          maxRetries,
          attempt: ({ input }) => `answer to ${input}`,
          validate: (candidate) =>
            candidate.endsWith(`${'+'.repeat(n)}`) && candidate.split('+').length - 1 === n
              ? valid
              : correctable('too short'),
          refine,
        },
        'q',
      );
      expect(outcome).toMatchObject({
        status: 'proceed',
        iterations: n,
        attempts: n + 1,
        candidate: `answer to q${'+'.repeat(n)}`,
      });
      expect(refine.calls).toBe(n);
      expect(refine.args.every(([ctx]) => ctx.error.message === 'too short')).toBe(true);
    },
  );

  it('passes the error as feedback to the next attempt when no refine is given', async () => {
    const attempt = counted((n, ctx: StepContext<string>) => ({
      n,
      feedback: ctx.feedback?.message,
      previous: ctx.previous,
      input: ctx.input,
    }));
    const outcome = await runLoop(
      { attempt, validate: counted((n) => (n < 3 ? correctable(`missing section ${n}`) : valid)) },
      'brief',
    );
    expect(outcome.status).toBe('proceed');
    expect(attempt.args.map(([ctx]) => ctx.feedback?.message)).toEqual([
      undefined,
      'missing section 1',
      'missing section 2',
    ]);
    expect(attempt.args.map(([ctx]) => ctx.input)).toEqual(['brief', 'brief', 'brief']);
  });

  it('an attempt sees the candidate that just failed as ctx.previous', async () => {
    const attempt = counted((n, _ctx: StepContext<string>) => `draft ${n}`);
    await runLoop(
      {
        attempt,
        validate: counted((n) => (n < 3 ? correctable(`gap ${n}`) : valid)),
        maxRetries: 3,
      },
      'task',
    );
    expect(attempt.args.map(([ctx]) => ctx.previous)).toEqual([undefined, 'draft 1', 'draft 2']);
  });

  it('a refine that changes the input gives the next attempt a new key', async () => {
    const keys: string[] = [];
    await runLoop<{ q: string; hint?: string }, string>(
      {
        attempt: counted((_n, ctx) => {
          keys.push(ctx.key ?? '');
          return 'draft';
        }),
        validate: counted((n) => (n < 2 ? correctable('add a hint') : valid)),
        refine: ({ input }) => ({ ...input, hint: 'be specific' }),
      },
      { q: 'x' },
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('stall detection', () => {
  const run = (config: Partial<LoopConfig<string, string>>) =>
    runLoop<string, string>(
      { attempt: () => 'x', validate: () => valid, maxRetries: 10, ...config },
      'q',
    );

  it('the same candidate and verdict 3 times (modulo whitespace, case and key order) ends as stalled', async () => {
    const drafts = [
      { text: 'Hello  World', n: 1 },
      { n: 1, text: 'hello world' },
      { text: ' HELLO WORLD ', n: 1 },
    ];
    const attempt = counted((n) => drafts[n - 1] ?? drafts[0]);
    const verdicts = ['Missing  the date', 'missing the date', 'MISSING THE DATE'];
    const outcome = await runLoop(
      {
        maxRetries: 10,
        attempt,
        validate: counted((n) => correctable(verdicts[n - 1] ?? '')),
      },
      'q',
    );
    expect(outcome).toMatchObject({ status: 'stalled', attempts: 3, iterations: 2 });
    expect(attempt.calls).toBe(3);
  });

  it("with stall.on 'verdict', three identical verdicts stall even when the drafts differ", async () => {
    const outcome = await run({
      attempt: counted((n) => `draft number ${n}`),
      validate: () => correctable('the claim has no source'),
      stall: { after: 3, on: 'verdict' },
    });
    expect(outcome).toMatchObject({ status: 'stalled', attempts: 3 });
  });

  it('by default, differing drafts with the same verdict keep going to the cap', async () => {
    const outcome = await run({
      attempt: counted((n) => `draft ${n}`),
      validate: () => correctable('too vague'),
      maxRetries: 6,
    });
    expect(outcome).toMatchObject({ status: 'iteration_exhausted', iterations: 6, attempts: 7 });
  });

  it('a validator that varies its verdict does not stall and ends at the cap', async () => {
    const outcome = await run({
      attempt: () => 'same draft',
      validate: counted((n) => correctable(`issue ${n}`)),
      maxRetries: 6,
    });
    expect(outcome).toMatchObject({ status: 'iteration_exhausted', iterations: 6 });
  });

  it('stall.after sets how many repeats stall, and stall: false turns it off', async () => {
    const same = { attempt: () => 'same', validate: () => correctable('same') };
    expect(await run({ ...same, stall: { after: 2 } })).toMatchObject({
      status: 'stalled',
      attempts: 2,
    });
    expect(await run({ ...same, stall: { after: 5 } })).toMatchObject({
      status: 'stalled',
      attempts: 5,
    });
    expect(await run({ ...same, stall: false, maxRetries: 4 })).toMatchObject({
      status: 'iteration_exhausted',
      attempts: 5,
    });
  });

  it('repeats must be consecutive: an interruption resets the count', async () => {
    const verdicts = ['a', 'a', 'b', 'a', 'a', 'b', 'a', 'a'];
    const outcome = await run({
      attempt: () => 'same',
      validate: counted((n) => correctable(verdicts[n - 1] ?? 'z')),
      maxRetries: 7,
    });
    expect(outcome).toMatchObject({ status: 'iteration_exhausted', attempts: 8 });
  });
});
