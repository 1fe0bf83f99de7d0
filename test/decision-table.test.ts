import { isLoopConfigError, LoopConfigError, routeAfterValidation } from 'loopchart';
import { describe, expect, it } from 'vitest';

const correctable = { severity: 'correctable' as const, message: 'missing field' };
const fundamental = { severity: 'fundamental' as const, message: 'wrong approach' };

describe('routeAfterValidation: every row of the decision table', () => {
  const budgets = [0, 1, 3, 50];

  it.each(
    budgets.flatMap((maxRetries) =>
      [0, 1, maxRetries].map((retryCount) => [retryCount, maxRetries]),
    ),
  )('valid → proceed whatever the budget (retryCount %i of %i)', (retryCount, maxRetries) => {
    const route = routeAfterValidation({ isValid: true, retryCount, maxRetries });
    expect(route).toMatchObject({ decision: 'proceed', retryCount });
    expect(route.rationale).toMatch(/accepted/);
  });

  it.each([
    [0, 1],
    [0, 3],
    [2, 3],
    [49, 50],
    [0, 50],
  ])(
    'correctable with budget left → refine and the count goes up (%i of %i)',
    (retryCount, maxRetries) => {
      const route = routeAfterValidation({
        isValid: false,
        error: correctable,
        retryCount,
        maxRetries,
      });
      expect(route.decision).toBe('refine');
      expect(route.retryCount).toBe(retryCount + 1);
      expect(route.rationale).toContain(`${maxRetries - retryCount} of ${maxRetries} retries`);
    },
  );

  it.each([
    [0, 0],
    [1, 1],
    [3, 3],
    [50, 50],
    [7, 3],
  ])('correctable with the budget spent → fallback (%i of %i)', (retryCount, maxRetries) => {
    const route = routeAfterValidation({
      isValid: false,
      error: correctable,
      retryCount,
      maxRetries,
    });
    expect(route).toMatchObject({ decision: 'fallback', retryCount });
  });

  it.each(
    budgets.flatMap((maxRetries) => [0, maxRetries].map((retryCount) => [retryCount, maxRetries])),
  )('fundamental → terminate_with_partial at any budget (%i of %i)', (retryCount, maxRetries) => {
    const route = routeAfterValidation({
      isValid: false,
      error: fundamental,
      retryCount,
      maxRetries,
    });
    expect(route).toMatchObject({ decision: 'terminate_with_partial', retryCount });
    expect(route.rationale).toMatch(/fundamental/);
  });

  it.each([null, undefined])(
    'invalid with no diagnostic (%s) → terminate_with_partial',
    (error) => {
      for (const [retryCount, maxRetries] of [
        [0, 0],
        [0, 1],
        [1, 50],
        [50, 50],
      ] as const) {
        const route = routeAfterValidation({ isValid: false, error, retryCount, maxRetries });
        expect(route).toMatchObject({ decision: 'terminate_with_partial', retryCount });
        expect(route.rationale).toMatch(/no diagnostic/);
      }
    },
  );
});

describe('routeAfterValidation: bad arguments throw LoopConfigError naming the field', () => {
  const call = (args: unknown) => () => routeAfterValidation(args as never);

  it('rejects a negative count', () => {
    expect(
      call({ isValid: true, retryCount: -1, maxRetries: 3 }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid routeAfterValidation arguments
        - retryCount: must be an integer ≥ 0 (received -1)]
    `);
  });

  it('rejects a fractional budget and one over 50', () => {
    expect(
      call({ isValid: true, retryCount: 0, maxRetries: 1.5 }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid routeAfterValidation arguments
        - maxRetries: must be an integer from 0 to 50 (received 1.5)]
    `);
    expect(call({ isValid: true, retryCount: 0, maxRetries: 51 })).toThrow(
      /maxRetries: must be an integer from 0 to 50/,
    );
  });

  it('rejects an unknown severity', () => {
    const args = {
      isValid: false,
      error: { severity: 'critical', message: 'x' },
      retryCount: 0,
      maxRetries: 3,
    };
    expect(call(args)).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid routeAfterValidation arguments
        - error.severity: Invalid option: expected one of "correctable"|"fundamental" (received "critical")]
    `);
  });

  it('throws errors recognisable across package copies', () => {
    try {
      routeAfterValidation({ isValid: 'yes' as never, retryCount: 0, maxRetries: 0 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LoopConfigError);
      expect(isLoopConfigError(error)).toBe(true);
      expect(isLoopConfigError(new Error('x'))).toBe(false);
      expect((error as LoopConfigError).issues[0]?.path).toEqual(['isValid']);
    }
  });
});
