/**
 * Issue 32, points 2 and 3: executed mode runs the user's real steps on generated inputs, with
 * generated calls (values, typed failures, latencies, verdicts) of the steps marked external, on
 * simulated time. A failing run is shrunk to a minimal input and path, and the printed seed and
 * path replay it. Seeded bugs path mode cannot see (an attempt that changes its input, a step
 * that ignores its abort signal) are reported with the path, the step and the input.
 */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import type { LoopConfig, LoopOutcome } from 'loopchart';
import { checkLoopRuns } from 'loopchart/testing';
import { describe, expect, it } from 'vitest';

interface Ticket {
  text: string;
  hint?: string;
}
interface Triage {
  queue: 'billing' | 'other';
  reason: string;
}

const correct: LoopConfig<Ticket, Triage> = {
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
};

const triage = fc.record({
  queue: fc.constantFrom<Triage['queue']>('billing', 'other'),
  reason: fc.string({ maxLength: 4 }),
});

/** The user's property: their own code never ends the loop in a permanent failure. */
const ownCodeNeverFails = (outcome: LoopOutcome<Triage>) => {
  if (outcome.status !== 'permanent_failure') return true;
  return outcome.error.cause?.message.startsWith('the generated ') === true;
};

const check = {
  input: fc.record({ text: fc.string({ maxLength: 8 }) }),
  external: { attempt: triage },
  property: ownCodeNeverFails,
  numRuns: 60,
};

const buggy = {
  ...correct,
  refine: ({ input, error }: { input: Ticket; error: { message: string } }) => {
    if (input.text.includes('!')) throw new Error('cannot escape "!"');
    return { ...input, hint: error.message };
  },
} as LoopConfig<Ticket, Triage>;

async function failureOf(run: Promise<void>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String(error);
  }
  throw new Error('the check passed');
}

describe('executed mode', () => {
  it('passes a correct loop with generated failures, latencies and waits, on simulated time', async () => {
    const slow = { ...correct, retryDelayMs: 5_000, deadlineMs: 20_000 };
    const runs = { count: 0, simulatedMs: 0, longest: 0, waited: 0 };
    const started = performance.now();
    await checkLoopRuns(slow, {
      ...check,
      numRuns: 100,
      seed: 7,
      property: (outcome, _input, run) => {
        runs.count += 1;
        runs.simulatedMs += run.elapsedMs;
        runs.longest = Math.max(runs.longest, run.elapsedMs);
        // a call after a failed one (a transient failure's retry) starts exactly 5 s later
        for (const [index, call] of run.calls.entries()) {
          const next = run.calls[index + 1];
          if (!call.threw || !next) continue;
          const waited = next.startedAt - (call.settledAt as number);
          if (waited !== 5_000) throw new Error(`${next.step} retried after ${waited} ms`);
          runs.waited += 1;
        }
        return ownCodeNeverFails(outcome);
      },
    });
    const realMs = performance.now() - started;
    console.log(
      `executed mode: ${runs.count} runs, ${runs.waited} with retry waits of 5 s, ${Math.round(runs.simulatedMs / 1000)} s simulated (longest ${runs.longest} ms) in ${Math.round(realMs)} ms real`,
    );
    expect(runs.count).toBe(100);
    expect(runs.waited).toBeGreaterThan(5);
    // the deadline fired: the longest runs lasted exactly deadlineMs
    expect(runs.longest).toBe(20_000);
    expect(runs.simulatedMs).toBeGreaterThan(runs.waited * 5_000);
  }, 60_000);

  it('lets a step of your code finish its real I/O before simulated time moves past it', async () => {
    // the validator reads a file: real I/O, many turns of the event loop, no simulated time
    const reading = {
      ...correct,
      stepTimeoutMs: 1_000,
      validate: async (ticket: Triage) => {
        const rules = await readFile(new URL(import.meta.url), 'utf8');
        return rules.includes(ticket.queue) && ticket.queue === 'billing'
          ? { valid: true as const }
          : { valid: false as const, error: { severity: 'correctable' as const, message: 'no' } };
      },
    } as LoopConfig<Ticket, Triage>;
    let validated = 0;
    await checkLoopRuns(reading, {
      input: check.input,
      external: { attempt: { returns: triage, throws: [], latencyMs: fc.constant(0) } },
      numRuns: 30,
      seed: 7,
      property: (_outcome, _input, run) => {
        for (const call of run.calls.filter((c) => c.step === 'validate')) {
          validated += 1;
          if (call.abortedAt !== undefined)
            throw new Error(`validate cut off: ${call.abortReason}`);
        }
      },
    });
    expect(validated).toBeGreaterThan(30);
  });

  it('shrinks a failing run to a minimal input and path, and replays it from the seed', async () => {
    const report = await failureOf(checkLoopRuns(buggy, { ...check, seed: 7 }));
    expect(report).toContain('the property failed');
    // shrunk: the smallest input that breaks refine, and the shortest run that reaches it
    expect(report).toContain('{"text":"!"}');
    expect(report).toMatch(
      /path: attempting → validating → refine → refining → permanent_failure ⇒ permanent_failure/,
    );
    const printed = /seed: (-?\d+), path: "([^"]+)"/.exec(report);
    expect(printed).not.toBeNull();
    const [, seed, path] = printed as RegExpExecArray;
    const again = await failureOf(
      checkLoopRuns(buggy, { ...check, seed: Number(seed), path: path as string }),
    );
    expect(again).toContain('{"text":"!"}');
    expect(again).toMatch(/path: attempting → validating → refine → refining → permanent_failure/);
  }, 60_000);

  it('catches an attempt that changes its input in place (the bug path mode cannot see)', async () => {
    const mutating = {
      ...correct,
      attempt: ({ input }: { input: Ticket }) => {
        input.hint = 'seen';
        return { queue: 'billing', reason: input.text };
      },
    } as LoopConfig<Ticket, Triage>;
    const { external: _scripted, ...real } = check;
    const report = await failureOf(checkLoopRuns(mutating, { ...real, seed: 7 }));
    expect(report).toContain("a step changed the loop's input in place");
    expect(report).toContain('Counterexample: [{"text":""');
    expect(report).toContain('path: attempting → validating → proceed ⇒ proceed');
  });
});

describe('every step can be external', () => {
  const allExternal = {
    attempt: triage,
    validate: true as const,
    refine: fc.record({ text: fc.string({ maxLength: 3 }) }),
    fallback: { returns: triage, throws: [] },
  };

  it('generates calls of attempt, validate, refine and fallback: every verdict and status', async () => {
    const statuses = new Set<string>();
    const called = new Set<string>();
    await checkLoopRuns(
      { ...correct, maxRetries: 1 },
      {
        input: check.input,
        external: allExternal,
        numRuns: 200,
        seed: 11,
        property: (outcome, _input, run) => {
          statuses.add(outcome.status);
          for (const call of run.calls) called.add(call.step);
          // no step the kit plays goes on once its signal aborted
          return run.calls.every(
            (call) => call.abortedAt === undefined || call.settledAt === call.abortedAt,
          );
        },
      },
    );
    expect([...called].sort()).toEqual(['attempt', 'fallback', 'refine', 'validate']);
    expect([...statuses]).toEqual(
      expect.arrayContaining([
        'proceed',
        'fallback',
        'terminate_with_partial',
        'permanent_failure',
        'ceiling_stop',
      ]),
    );
  }, 60_000);

  it('finds the real refine that breaks on feedback only an external validator gives', async () => {
    // the user's refine parses the feedback of their own validator, and no other
    const parsing = {
      ...correct,
      refine: ({ input, error }: { input: Ticket; error: { message: string } }) => ({
        ...input,
        hint: (/^pick a queue: (.*)$/.exec(error.message) as RegExpExecArray)[1],
      }),
    } as LoopConfig<Ticket, Triage>;
    await checkLoopRuns(parsing, { ...check, seed: 11 });
    const report = await failureOf(
      checkLoopRuns(parsing, {
        input: check.input,
        external: { validate: true },
        property: ownCodeNeverFails,
        seed: 11,
      }),
    );
    expect(report).toContain('the property failed');
    expect(report).toContain(
      'path: attempting → validating → refine → refining → permanent_failure ⇒ permanent_failure',
    );
    // shrunk to the empty input and the one verdict that reaches refine
    expect(report).toContain(
      'Counterexample: [{"text":""},{"validate":[{"answer":{"value":{"valid":false,"error":{"severity":"correctable"',
    );
  }, 60_000);

  it('refuses an external mark of a step the config does not have', async () => {
    const { fallback: _none, ...noFallback } = correct;
    await expect(
      checkLoopRuns(noFallback, { input: check.input, external: { fallback: triage } }),
    ).rejects.toThrow(/external\.fallback marks a step the config does not have/);
  });
});

/**
 * A model client as the user's attempt calls it: it answers a plain ticket at once, and keeps a
 * ticket that mentions "slow" waiting until its request is aborted, if it was given the signal.
 */
const model = (text: string, signal?: AbortSignal) =>
  new Promise<Triage>((resolve, reject) => {
    if (!text.includes('slow')) resolve({ queue: 'billing', reason: text });
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const withSignal: LoopConfig<Ticket, Triage> = {
  ...correct,
  attempt: ({ input, signal }) => model(input.text, signal),
};
// the seeded bug: the attempt never passes its signal on, so an aborted attempt runs on
const ignoringSignal: LoopConfig<Ticket, Triage> = {
  ...correct,
  attempt: ({ input }) => model(input.text),
};
// the model double does no I/O: simulated time need not wait for it (realStepMs: 0)
const tickets = { input: fc.record({ text: fc.constantFrom('refund please', 'slow refund') }) };

describe('a step that ignores its abort signal', () => {
  it.each([
    [
      'its timeout',
      { attemptTimeoutMs: 2_000 },
      /2000 ms into the run \(attempt did not finish within attemptTimeoutMs/,
      'attempting → unknown_outcome ⇒ unknown_outcome',
    ],
    [
      'the deadline',
      { deadlineMs: 3_000 },
      /3000 ms into the run \(attempt was still in flight when the run's deadlineMs ran out/,
      'attempting → ceiling_stop ⇒ ceiling_stop',
    ],
  ] as const)(
    'is reported when %s aborts it, with the path, the step and the input',
    async (_why, limit, when, path) => {
      await checkLoopRuns(
        { ...withSignal, ...limit },
        { ...tickets, numRuns: 20, seed: 3, realStepMs: 0 },
      );
      const report = await failureOf(
        checkLoopRuns(
          { ...ignoringSignal, ...limit },
          { ...tickets, numRuns: 20, seed: 3, realStepMs: 0 },
        ),
      );
      expect(report).toContain('attempt ignored its abort signal');
      expect(report).toMatch(when);
      expect(report).toContain(
        'the step was still running 500 ms later; attempt was called with input {"text":"slow refund"}',
      );
      expect(report).toContain(`path: ${path}`);
      expect(report).toContain('Counterexample: [{"text":"slow refund"},{}]');
      const [, seed, replay] = /seed: (-?\d+), path: "([^"]+)"/.exec(report) as RegExpExecArray;
      const again = await failureOf(
        checkLoopRuns(
          { ...ignoringSignal, ...limit },
          { ...tickets, seed: Number(seed), path: replay as string, realStepMs: 0 },
        ),
      );
      expect(again).toContain('attempt ignored its abort signal');
    },
  );
});
