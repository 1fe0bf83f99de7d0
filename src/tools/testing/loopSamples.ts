import type { FailureKind } from '../../core/vocabulary/failures.js';
import { reproducibilityKey } from '../../core/vocabulary/hashing.js';

/** A structural fast-check arbitrary: anything `fc.sample` can draw a `T` from. */
export interface ArbitraryLike<T> {
  generate(random: never, biasFactor: number | undefined): { readonly value: T };
  canShrinkWithoutContext(value: unknown): boolean;
}

/** A value a path feeds: a plain value, a function of the step number, or a fast-check arbitrary. */
export type Sample<T> = T | ((n: number) => T) | ArbitraryLike<T>;

/** The verdicts a path gives a candidate, as keys of the samples labelled by them. */
export type VerdictLabel = 'valid' | 'correctable' | 'fundamental' | 'noDiagnostic' | 'malformed';

/** Samples labelled by the verdict the path gives them. */
export type VerdictSamples<C> = Partial<Record<VerdictLabel, Sample<C>>>;

/** The values a path feeds the loop, typed as its input `I` and candidate `C`. */
export interface LoopSamples<I, C> {
  /** What the scripted attempt returns (on attempt `n`), by the verdict the path gives it. */
  candidates?: VerdictSamples<C>;
  /** The next input a scripted refine returns (after `n` refine cycles). Unused when refine runs for real. */
  refined?: Sample<I>;
  /** What a scripted fallback answers. Unused when the fallback runs for real. */
  fallback?: Sample<C>;
  /** A reviewer's `review.modify`: a new input, or a new candidate by the verdict it then gets. */
  edits?: { input?: Sample<I>; candidate?: VerdictSamples<C> };
  /** A person's answer to the attempt's clarification question (offered as its only option). */
  answer?: Sample<string>;
  /** Values a step throws on the path, by the kind the path says they are (the classifier must agree). */
  errors?: Partial<Record<FailureKind, unknown>>;
}

/** Where a sample sits in `LoopSamples`, e.g. `'candidates.correctable'`. */
export type SampleKey =
  | `candidates.${VerdictLabel}`
  | 'refined'
  | 'fallback'
  | 'edits.input'
  | `edits.candidate.${VerdictLabel}`
  | 'answer';

/** The sample at `key`, or undefined when the user gave none. */
export function sampleAt<I, C>(samples: LoopSamples<I, C>, key: SampleKey): Sample<unknown> {
  const [head, ...rest] = key.split('.');
  let value: unknown = samples;
  for (const part of [head, ...rest]) {
    value = value === undefined ? undefined : (value as Record<string, unknown>)[part as string];
  }
  return value;
}

function isArbitrary(value: unknown): value is ArbitraryLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ArbitraryLike<unknown>).generate === 'function' &&
    typeof (value as ArbitraryLike<unknown>).canShrinkWithoutContext === 'function'
  );
}

/**
 * The value of a sample at step `n`. An arbitrary is drawn with fast-check (the user's own copy)
 * from a seed of the path and the key, so a failing path replays with the same values.
 */
export async function drawSample(sample: Sample<unknown>, n: number, seedText: string) {
  if (typeof sample === 'function') return (sample as (n: number) => unknown)(n);
  if (!isArbitrary(sample)) return sample;
  const fc = (await import('fast-check')) as {
    sample<T>(arbitrary: unknown, options: { seed: number; numRuns: number }): T[];
  };
  const seed = Number.parseInt(reproducibilityKey(`${seedText} ${n}`).slice(0, 8), 16) | 0;
  return fc.sample(sample, { seed, numRuns: 1 })[0];
}
