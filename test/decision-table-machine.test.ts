import { fc, test } from '@fast-check/vitest';
import { routeAfterValidation, runLoop, type ValidationResult } from 'loopchart';
import { describe, expect } from 'vitest';

const finalVerdicts: Record<string, ValidationResult> = {
  valid: { valid: true },
  correctable: { valid: false, error: { severity: 'correctable', message: 'last problem' } },
  fundamental: { valid: false, error: { severity: 'fundamental', message: 'wrong approach' } },
  'no diagnostic': { valid: false, error: null },
};

describe('the machine routes exactly as routeAfterValidation says', () => {
  test.prop(
    [
      fc
        .integer({ min: 0, max: 6 })
        .chain((maxRetries) =>
          fc.tuple(fc.constant(maxRetries), fc.integer({ min: 0, max: maxRetries })),
        ),
      fc.constantFrom(...Object.keys(finalVerdicts)),
      fc.boolean(),
    ],
    { numRuns: 300 },
  )(
    'after retryCount correctable rejections, the next verdict routes per the table',
    async ([maxRetries, retryCount], name, withFallback) => {
      const verdict = finalVerdicts[name] as ValidationResult;
      let validations = 0;
      const outcome = await runLoop(
        {
          maxRetries,
          stall: false,
          attempt: ({ attempt }) => `draft ${attempt}`,
          validate: () => {
            validations += 1;
            return validations <= retryCount
              ? {
                  valid: false,
                  error: { severity: 'correctable', message: `problem ${validations}` },
                }
              : verdict;
          },
          ...(withFallback ? { fallback: () => 'fallback answer' } : {}),
        },
        'q',
      );
      const route = routeAfterValidation({
        isValid: verdict.valid,
        error: verdict.valid ? undefined : verdict.error,
        retryCount,
        maxRetries,
      });
      const decisions = outcome.trace.filter(
        (entry) => entry.state === 'routing' && entry.decision,
      );
      const taken = decisions[retryCount];
      const expected =
        route.decision === 'fallback' && !withFallback ? 'iteration_exhausted' : route.decision;
      expect(decisions.slice(0, retryCount).every((entry) => entry.decision === 'refine')).toBe(
        true,
      );
      expect(taken?.decision).toBe(expected);
      expect(taken?.retryCount).toBe(route.retryCount);
    },
  );
});
