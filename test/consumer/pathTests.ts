// Path tests of the user's own loop, with typed samples and the real steps.
import { expectTypeOf } from 'expect-type';
import { createLoopMachine, type LoopConfig, type LoopOutcome } from 'loopchart';
import {
  getLoopPaths,
  type LoopPath,
  type LoopSamples,
  transitionCoverage,
} from 'loopchart/testing';

interface Invoice {
  text: string;
}
interface Total {
  amount: number;
  currency: 'EUR';
}

const steps: LoopConfig<Invoice, Total> = {
  maxRetries: 2,
  attempt: ({ input }) => ({ amount: input.text.length, currency: 'EUR' }),
  validate: (total) =>
    total.amount > 0
      ? { valid: true }
      : { valid: false, error: { severity: 'correctable', message: 'no amount' } },
  refine: ({ input, error }) => ({ text: `${input.text} (${error.message})` }),
  fallback: () => ({ amount: 0, currency: 'EUR' }),
};
const machine = createLoopMachine(steps);

const samples: LoopSamples<Invoice, Total> = {
  candidates: {
    valid: { amount: 10, currency: 'EUR' },
    correctable: (n) => ({ amount: -n, currency: 'EUR' }),
  },
  refined: (n) => ({ text: `retry ${n}` }),
};

export async function everyPath(): Promise<number> {
  const paths = getLoopPaths(machine, {
    input: { text: 'Paper 12.50' },
    samples,
    realSteps: steps,
  });
  let replayed = 0;
  for (const path of paths) {
    if (path.skipped !== undefined) continue;
    const { outcome } = await path.replay();
    // probe: a replay's outcome carries the loop's candidate type
    expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<Total>>();
    if (outcome.status === 'proceed')
      expectTypeOf(outcome.candidate.currency).toEqualTypeOf<'EUR'>();
    replayed += 1;
  }
  const coverage = transitionCoverage(machine, paths);
  return replayed + coverage.uncovered.length;
}

export function wrongSamples(): void {
  // @ts-expect-error TS2322 a sample must be a Total, not a string
  const bad: LoopSamples<Invoice, Total> = { candidates: { valid: 'ten euros' } };
  void bad;
}

export function inlineSamples(): number {
  const paths = getLoopPaths(machine, {
    input: { text: 'Paper 12.50' },
    samples: { candidates: { valid: (n) => ({ amount: n, currency: 'EUR' }) } },
  });
  // probe: inline samples keep the loop's candidate type
  expectTypeOf(paths).toEqualTypeOf<LoopPath<Total>[]>();
  return paths.length;
}

export function samplesNeedInput(): void {
  // @ts-expect-error TS2769 samples without the loop's first input do not compile
  getLoopPaths(machine, { samples });
}
