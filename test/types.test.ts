import {
  createLoopMachine,
  type LoopError,
  type LoopOutcome,
  type LoopStatus,
  runLoop,
  type ValidationResult,
} from 'loopchart';
import { describe, expectTypeOf, it } from 'vitest';
import type { OutputFrom } from 'xstate';

// These tests are checked by `tsc` in `npm test` (typecheck), and the runtime half by vitest.
describe('public types', () => {
  it('infers the candidate type from attempt and narrows the outcome by status', async () => {
    const outcome = await runLoop(
      {
        attempt: ({ input }) => ({ title: input.toUpperCase() }),
        validate: (c) => ({ valid: c.title.length > 0 }),
      },
      'hello',
    );
    expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<{ title: string }>>();
    if (outcome.status === 'proceed')
      expectTypeOf(outcome.candidate).toEqualTypeOf<{ title: string }>();
    if (outcome.status === 'fallback')
      expectTypeOf(outcome.partial).toEqualTypeOf<{ title: string } | undefined>();
    if (!outcome.ok) {
      expectTypeOf(outcome.error).toEqualTypeOf<LoopError>();
      // @ts-expect-error a failed outcome has no candidate, only a partial
      void outcome.candidate;
    } else {
      // @ts-expect-error an ok outcome carries no error
      void outcome.error;
    }
    if (outcome.status === 'empty') {
      // @ts-expect-error empty never carries a candidate
      void outcome.candidate;
    }
  });

  it('keeps status and decision strings exact', () => {
    expectTypeOf<LoopStatus>().toEqualTypeOf<
      | 'proceed'
      | 'fallback'
      | 'terminate_with_partial'
      | 'iteration_exhausted'
      | 'stalled'
      | 'policy_stop'
      | 'permanent_failure'
      | 'retry_exhausted'
      | 'unknown_outcome'
      | 'ceiling_stop'
      | 'budget_stop'
      | 'empty'
      | 'aborted'
    >();
    expectTypeOf<LoopError['kind']>().toEqualTypeOf<
      Exclude<LoopStatus, 'proceed' | 'fallback' | 'empty'>
    >();
  });

  it('rejects wrong config shapes at compile time', () => {
    const validate = (): ValidationResult => ({ valid: true });
    // @ts-expect-error maxRetries is a number
    void (() => createLoopMachine({ attempt: () => 'x', validate, maxRetries: 'three' }));
    // @ts-expect-error attempt is required
    void (() => createLoopMachine({ validate }));
    // @ts-expect-error severity is 'correctable' | 'fundamental'
    const bad: ValidationResult = { valid: false, error: { severity: 'critical', message: 'x' } };
    void bad;
  });

  it('types the machine output as the LoopOutcome', () => {
    const machine = createLoopMachine({ attempt: () => 42, validate: () => ({ valid: true }) });
    expectTypeOf<OutputFrom<typeof machine>>().toEqualTypeOf<LoopOutcome<number>>();
  });
});
