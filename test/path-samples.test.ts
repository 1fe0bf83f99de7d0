import { createLoopMachine, isLoopConfigError, type LoopConfig, type LoopOutcome } from 'loopchart';
import {
  getLoopPaths,
  isLoopPathMismatchError,
  type LoopPath,
  type LoopSamples,
  transitionCoverage,
} from 'loopchart/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';

// Path tests of the user's loop: their samples feed every path, their real steps run on them, and
// a step that disagrees with the path fails the replay naming the step, the sample and the path.

interface Ask {
  topic: string;
  hint?: string;
}
interface Draft {
  words: string[];
  cites: number;
}

const verdictOf = (draft: Draft) => {
  if (draft.words.length === 0)
    return { valid: false as const, error: { severity: 'fundamental' as const, message: 'empty' } };
  if (draft.cites > 0) return { valid: true as const };
  return {
    valid: false as const,
    error: { severity: 'correctable' as const, message: `cite a source for ${draft.words[0]}` },
  };
};

const goodSteps = {
  attempt: ({ input }) => ({ words: [input.topic], cites: 0 }),
  validate: verdictOf,
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
  fallback: ({ partial }) => ({ words: partial?.words ?? ['summary'], cites: 1 }),
} satisfies Pick<LoopConfig<Ask, Draft>, 'attempt' | 'validate' | 'refine' | 'fallback'>;

const boom = () => {
  throw new TypeError('Cannot read properties of undefined');
};
const brokenSteps: LoopConfig<Ask, Draft> = {
  attempt: boom,
  validate: boom,
  refine: boom,
  fallback: boom,
};

const input: Ask = { topic: 'tides' };
const samples = {
  candidates: {
    valid: (n: number) => ({ words: ['tides', `draft ${n}`], cites: 1 }),
    correctable: (n: number) => ({ words: ['tides', `draft ${n}`], cites: 0 }),
    fundamental: { words: [], cites: 0 },
  },
} satisfies LoopSamples<Ask, Draft>;

/** The replays that fail, of the paths the samples can feed; the others are listed as skipped. */
async function outcomesOf<C>(paths: LoopPath<C>[]) {
  const failed: Array<{ path: string; message: string }> = [];
  for (const path of paths.filter((p) => p.skipped === undefined)) {
    await path.replay().catch((error: unknown) => {
      if (!isLoopPathMismatchError(error)) throw error;
      failed.push({ path: path.description, message: error.message });
    });
  }
  return failed;
}

// every path replayed with real steps, all CPU: over the 30 s default at load 15 on 2 cores
describe('real steps in the replay', { timeout: 120_000 }, () => {
  it('fails the suite of a loop whose steps all throw TypeError, naming the step', async () => {
    const loop = createLoopMachine<Ask, Draft>({ ...brokenSteps, maxRetries: 1 });
    const real = getLoopPaths(loop, { input, samples, realSteps: brokenSteps });
    const failed = await outcomesOf(real);
    const validated = real.filter(
      (path) =>
        path.skipped === undefined &&
        path.steps.some((step) => step.event.type === 'xstate.done.actor.validate'),
    );
    expect(validated.length).toBeGreaterThan(10);
    expect(failed.map((failure) => failure.path)).toEqual(
      validated.map((path) => path.description),
    );
    for (const { message } of failed) {
      expect(message).toMatch(
        /^validate threw TypeError: Cannot read properties of undefined on samples\.candidates\.\w+ \(n = \d+: .*\); the path expected /,
      );
    }
    // the same loop's scripted paths, which run none of its code, all pass
    expect(await outcomesOf(getLoopPaths(loop, { input }))).toEqual([]);
  });

  it('names refine and the fallback when they are the steps that throw', async () => {
    const steps = { ...goodSteps, refine: boom, fallback: boom };
    const loop = createLoopMachine<Ask, Draft>({ ...steps, maxRetries: 1 });
    const failed = await outcomesOf(getLoopPaths(loop, { input, samples, realSteps: steps }));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every(({ message }) => /^refine threw TypeError/.test(message))).toBe(true);
    const noRetries = createLoopMachine<Ask, Draft>({ ...steps, maxRetries: 0 });
    const fallbacks = getLoopPaths(noRetries, { input, samples, realSteps: steps }).filter(
      (path) => path.description === 'attempt → correctable → fallback ⇒ fallback',
    );
    expect(await outcomesOf(fallbacks)).toEqual([
      {
        path: 'attempt → correctable → fallback ⇒ fallback',
        message: expect.stringMatching(
          /^fallback threw TypeError: Cannot read properties of undefined on samples\.candidates\.correctable \(n = 1: .*\); the path expected fallback\n {2}path: attempt → correctable → fallback ⇒ fallback\n {2}at step 3$/,
        ),
      },
    ]);
  });

  it('passes every path of the same loop with correct steps', async () => {
    const loop = createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 2 });
    const paths = getLoopPaths(loop, { input, samples, realSteps: goodSteps });
    expect(paths.length).toBeGreaterThan(40);
    expect(await outcomesOf(paths)).toEqual([]);
    // the verdicts this validator never gives are the only paths left out
    const reasons = new Set(transitionCoverage(loop, paths).skipped.map((skip) => skip.reason));
    expect(reasons).toEqual(
      new Set(['needs samples.candidates.noDiagnostic', 'needs samples.candidates.malformed']),
    );
  });

  it('fails a replay whose validator accepts a sample labelled correctable', async () => {
    const loop = createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 1 });
    const lenient = { ...goodSteps, validate: () => ({ valid: true as const }) };
    const path = getLoopPaths(loop, { input, samples, realSteps: lenient }).find(
      (p) => p.description === 'attempt → correctable → refine → attempt → valid ⇒ proceed',
    );
    await expect(path?.replay()).rejects.toThrowErrorMatchingInlineSnapshot(`
      [LoopPathMismatchError: validate accepted samples.candidates.correctable (n = 1: {"words":["tides","draft 1"],"cites":0}); the path expected a correctable error
        path: attempt → correctable → refine → attempt → valid ⇒ proceed
        at step 2]
    `);
  });

  it('fails a replay whose classifier calls a retryable 429 permanent', async () => {
    const rateLimited = Object.assign(new Error('429 Too Many Requests'), { status: 429 });
    const byStatus = (permanent: boolean) => (error: unknown) =>
      (error as { status?: number }).status === 429
        ? permanent
          ? ('permanent' as const)
          : { kind: 'transient' as const, effect: 'none' as const }
        : undefined;
    const config = { ...goodSteps, maxRetries: 1 };
    const withErrors = { ...samples, errors: { transient: rateLimited } };
    const pathOf = (classifyFailure: ReturnType<typeof byStatus>) =>
      getLoopPaths(createLoopMachine<Ask, Draft>({ ...config, classifyFailure }), {
        input,
        samples: withErrors,
        realSteps: { ...goodSteps, classifyFailure },
      }).find(
        (p) =>
          p.description ===
          'attempt: transient (effect none) → retry wait → attempt → valid ⇒ proceed',
      );
    await expect(pathOf(byStatus(true))?.replay()).rejects.toThrow(
      /^classifyFailure calls samples\.errors\.transient \(429 Too Many Requests\) permanent; the path expected transient\n {2}path: attempt: transient \(effect none\) → retry wait/,
    );
    const passed = await pathOf(byStatus(false))?.replay();
    expect(passed?.outcome).toMatchObject({ status: 'proceed', attempts: 2 });
    const retried = passed?.outcome.trace.find((entry) => entry.failureKind === 'transient');
    expect(retried?.rationale).toBe('429 Too Many Requests');
  });
});

describe('typed samples', () => {
  const config = {
    ...goodSteps,
    maxRetries: 2,
    review: { beforeProceed: true, afterFailedValidation: true },
  } satisfies LoopConfig<Ask, Draft>;
  const loop = createLoopMachine<Ask, Draft>(config);
  const supplied = new Set<unknown>();
  const made =
    <T>(make: (n: number) => T) =>
    (n: number) => {
      const value = make(n);
      supplied.add(value);
      return value;
    };
  const all: LoopSamples<Ask, Draft> = {
    candidates: {
      valid: made((n) => ({ words: ['valid', `${n}`], cites: 1 })),
      correctable: made((n) => ({ words: ['correctable', `${n}`], cites: 0 })),
      fundamental: made(() => ({ words: [], cites: 0 })),
      noDiagnostic: made((n) => ({ words: ['undiagnosed', `${n}`], cites: 0 })),
      malformed: made((n) => ({ words: ['judged badly', `${n}`], cites: 0 })),
    },
    refined: made((n) => ({ topic: 'tides', hint: `revision ${n}` })),
    fallback: made(() => ({ words: ['fallback'], cites: 1 })),
    edits: {
      input: made(() => ({ topic: 'tides, in three lines' })),
      candidate: {
        valid: made(() => ({ words: ['edited'], cites: 1 })),
        correctable: made(() => ({ words: ['edited'], cites: 0 })),
        fundamental: made(() => ({ words: [], cites: 0 })),
        noDiagnostic: made(() => ({ words: ['edited, undiagnosed'], cites: 0 })),
        malformed: made(() => ({ words: ['edited, judged badly'], cites: 0 })),
      },
    },
    answer: '2026',
  };

  it('feeds only values the user supplied on every path of a loop with fallback and review', async () => {
    const paths = getLoopPaths(loop, { input, samples: all });
    expect(paths.length).toBeGreaterThan(100);
    let checked = 0;
    for (const path of paths) {
      const { outcome } = await path.replay();
      expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<Draft>>();
      const { candidate, partial } = outcome as { candidate?: Draft; partial?: Draft };
      for (const value of [candidate, partial]) {
        if (value === undefined) continue;
        expect(supplied.has(value), `${path.description}: ${JSON.stringify(value)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(paths.length * 0.9);
    const coverage = transitionCoverage(loop, paths);
    expect(coverage.skipped).toEqual([]);
    expect(coverage.uncovered).toEqual([]);
    expect(coverage.unreachedFinals).toEqual([]);
  }, 120_000); // hundreds of real replays: a generous guard on a busy machine

  it('types the outcome as unknown when loopchart scripts the values itself', () => {
    const [path] = getLoopPaths(loop, { input });
    expectTypeOf<
      Awaited<ReturnType<NonNullable<typeof path>['replay']>>['outcome']
    >().toEqualTypeOf<LoopOutcome<unknown>>();
  });

  it('skips the paths whose sample is missing, says why, and lists them in the coverage', async () => {
    const { fundamental, ...rest } = all.candidates ?? {};
    const edits = { ...all.edits, candidate: rest };
    const paths = getLoopPaths(loop, { input, samples: { ...all, candidates: rest, edits } });
    const skipped = paths.filter((path) => path.skipped !== undefined);
    expect(skipped.length).toBeGreaterThan(0);
    expect(new Set(skipped.map((path) => path.skipped))).toEqual(
      new Set([
        'needs samples.candidates.fundamental',
        'needs samples.edits.candidate.fundamental',
      ]),
    );
    expect(skipped.every((path) => path.steps.some((step) => step.label === 'fundamental'))).toBe(
      true,
    );
    const coverage = transitionCoverage(loop, paths);
    expect(coverage.skipped).toEqual(
      skipped.map((path) => ({ path: path.description, reason: path.skipped })),
    );
    // the review's resubmitted draft still reaches the fundamental row; without review nothing does
    const plain = createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 2 });
    const plainPaths = getLoopPaths(plain, { input, samples: { ...all, candidates: rest, edits } });
    const uncovered = transitionCoverage(plain, plainPaths).uncovered;
    expect(uncovered.map((edge) => `${edge.source} ${edge.guard} → ${edge.target}`)).toEqual([
      'loop.routing isFundamental → loop.terminate_with_partial',
    ]);
    await expect(skipped[0]?.replay()).rejects.toThrow(
      /^the path was skipped: it needs samples\.candidates\.fundamental, which the options do not give\n {2}path: /,
    );
  });

  it('draws fast-check arbitraries, the same values on every replay of a path', async () => {
    const fc = await import('fast-check');
    const draft = fc.record({ words: fc.array(fc.string(), { minLength: 1 }), cites: fc.nat() });
    const paths = getLoopPaths(createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 1 }), {
      input,
      samples: { candidates: { valid: draft, correctable: draft, fundamental: draft } },
    });
    const path = paths.find(
      (p) => p.description === 'attempt → correctable → refine → attempt → valid ⇒ proceed',
    );
    expect(path?.skipped).toMatch(/^needs samples\.refined$/);
    const valid = paths.find((p) => p.description === 'attempt → valid ⇒ proceed');
    const first = await valid?.replay();
    const again = await valid?.replay();
    expect(first?.outcome).toEqual(
      again?.outcome && { ...again.outcome, trace: first?.outcome.trace },
    );
    expect(first?.outcome).toMatchObject({ status: 'proceed' });
    expect((first?.outcome as { candidate?: Draft } | undefined)?.candidate).toMatchObject({
      words: expect.any(Array),
      cites: expect.any(Number),
    });
  });

  it('types samples and outcomes as the loop input and candidate types', () => {
    const paths = getLoopPaths(loop, { input, samples: all });
    expectTypeOf(paths).toEqualTypeOf<LoopPath<Draft>[]>();
    // @ts-expect-error a candidate sample must be a Draft
    getLoopPaths(loop, { input, samples: { candidates: { valid: 'a string' } } });
    // @ts-expect-error a refined input must be an Ask
    getLoopPaths(loop, { input, samples: { refined: (n: number) => ({ task: n }) } });
    expect(paths.every((path) => path.skipped === undefined)).toBe(true);
  });

  it('answers the clarification question with the sampled answer, which the real validate sees', async () => {
    const heard: unknown[] = [];
    const validate: LoopConfig<Ask, Draft>['validate'] = (draft, ctx) => {
      heard.push((ctx as unknown as { answers: unknown }).answers);
      return goodSteps.validate(draft);
    };
    const steps = { ...goodSteps, validate };
    const path = getLoopPaths(createLoopMachine<Ask, Draft>({ ...steps, maxRetries: 1 }), {
      input,
      samples: { ...samples, answer: (n) => `fiscal year 2025 (asked on attempt ${n})` },
      realSteps: steps,
    }).find(
      (p) => p.description === 'attempt: asks a question → answer → attempt → valid ⇒ proceed',
    );
    await expect(path?.replay()).resolves.toMatchObject({ outcome: { status: 'proceed' } });
    expect(heard).toEqual([
      [{ question: 'Which fiscal year?', answer: 'fiscal year 2025 (asked on attempt 1)' }],
    ]);
  });

  it('needs the first input with samples', () => {
    let thrown: unknown;
    try {
      // @ts-expect-error samples without input do not compile either
      getLoopPaths(loop, { samples: all });
    } catch (error) {
      thrown = error;
    }
    expect(isLoopConfigError(thrown)).toBe(true);
    expect(String(thrown)).toMatch(/^LoopConfigError: input: /);
  });
});

describe('assertions per step and per outcome', () => {
  const loop = createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 1 });

  it('runs onStep after every event and onOutcome on every replay', async () => {
    const seen: string[] = [];
    const ends: string[] = [];
    const paths = getLoopPaths(loop, {
      input,
      samples,
      realSteps: goodSteps,
      onStep: (step, path) => {
        expectTypeOf(step.candidate).toEqualTypeOf<Draft | undefined>();
        seen.push(`${path.description} #${step.index} ${step.label} → ${step.state}`);
      },
      onOutcome: (outcome, path) => {
        expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<Draft>>();
        ends.push(`${path.description} = ${outcome.status}`);
      },
    });
    const fed = paths.filter((path) => path.skipped === undefined);
    for (const path of fed) await path.replay();
    expect(ends).toEqual(fed.map((path) => `${path.description} = ${path.status}`));
    const expected = fed.flatMap((path) =>
      path.steps.map(
        (step, index) => `${path.description} #${index} ${step.label} → ${step.state}`,
      ),
    );
    expect(seen).toEqual(expected);
  });

  it('fails the replay of a path whose outcome the user handler cannot cope with', async () => {
    const handle = (outcome: LoopOutcome<Draft>) => {
      if (outcome.status === 'fallback') throw new Error('no handler for a fallback answer');
    };
    const withFallback = createLoopMachine<Ask, Draft>({ ...goodSteps, maxRetries: 0 });
    const paths = getLoopPaths(withFallback, {
      input,
      samples,
      realSteps: goodSteps,
      onOutcome: handle,
    });
    const failed: string[] = [];
    for (const path of paths.filter((p) => p.skipped === undefined)) {
      await path
        .replay()
        .catch((error: unknown) => failed.push(`${path.status}: ${String(error)}`));
    }
    expect(failed.length).toBeGreaterThan(0);
    // the failure names the hook, the outcome it was given and the path
    for (const failure of failed) {
      expect(failure).toMatch(
        /^fallback: LoopPathMismatchError: onOutcome \(fallback: .+\) threw Error: no handler for a fallback answer\n {2}path: .+⇒ fallback$/,
      );
    }
  });
});
