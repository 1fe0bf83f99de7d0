import type { ValidationResult } from '../../../core/vocabulary/validation.js';

/** Verdicts by name, for scripted validators. */
export const verdicts = {
  valid: (): ValidationResult => ({ valid: true }),
  correctable: (message = 'the draft is incomplete'): ValidationResult => ({
    valid: false,
    error: { severity: 'correctable', message },
  }),
  fundamental: (message = 'the request contradicts itself'): ValidationResult => ({
    valid: false,
    error: { severity: 'fundamental', message },
  }),
  undiagnosed: (): ValidationResult => ({ valid: false }),
};

/** Counts calls of each step, so a check can compare what ran with what the outcome says. */
export function stepCounter() {
  const calls = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  return {
    calls,
    count<A extends unknown[], R>(step: keyof typeof calls, fn: (...args: A) => R) {
      return (...args: A): R => {
        calls[step] += 1;
        return fn(...args);
      };
    },
  };
}

/** A small deterministic PRNG (mulberry32), so the bounds check is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
