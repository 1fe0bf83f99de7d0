import {
  createLoopMachine,
  isLoopConfigError,
  type LoopConfig,
  resolveConfig,
  runLoop,
} from 'loopchart';
import { describe, expect, it } from 'vitest';
import { counted, valid } from './support/scriptedSteps.js';

describe('garbage validator output ends as terminate_with_partial, never a throw', () => {
  it.each([
    ['yes', 'yes'],
    ['null', null],
    ['{ valid: "true" }', { valid: 'true' }],
    ['undefined', undefined],
    ['a number', 1],
    ['an unknown severity', { valid: false, error: { severity: 'critical', message: 'x' } }],
    ['an error without a message', { valid: false, error: { severity: 'correctable' } }],
    [
      'an object whose getters throw',
      {
        get valid() {
          throw new Error('gotcha');
        },
      },
    ],
  ])('%s', async (_label, garbage) => {
    const attempt = counted(() => 'draft');
    const outcome = await runLoop(
      { attempt, validate: () => garbage as never, maxRetries: 3 },
      'q',
    );
    expect(outcome.status).toBe('terminate_with_partial');
    expect(attempt.calls).toBe(1);
    expect(outcome.rationale).toMatch(/malformed/);
    if (!outcome.ok) {
      expect(outcome.partial).toBe('draft');
      expect(outcome.error.kind).toBe('terminate_with_partial');
    }
  });

  it('a spoofed severity can only choose between rows of the table', async () => {
    const spoofed = {
      valid: false,
      error: {
        severity: 'correctable',
        message: 'ok',
        details: { severity: 'ignore', valid: true },
      },
      valid2: true,
    };
    const outcome = await runLoop(
      { attempt: () => 'draft', validate: () => spoofed as never, maxRetries: 1 },
      'q',
    );
    expect(outcome.status).toBe('iteration_exhausted');
  });
});

describe('bad config throws LoopConfigError at creation, naming the field and the range', () => {
  const steps = { attempt: () => 'x', validate: () => valid };
  const create = (config: unknown) => () => createLoopMachine(config as LoopConfig);

  it('maxRetries: -1', () => {
    expect(create({ ...steps, maxRetries: -1 })).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid loop config
        - maxRetries: must be an integer from 0 to 50 (received -1)]
    `);
  });

  it('maxRetries: 51', () => {
    expect(create({ ...steps, maxRetries: 51 })).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid loop config
        - maxRetries: must be an integer from 0 to 50 (received 51)]
    `);
  });

  it('maxRetries: 1.5', () => {
    expect(create({ ...steps, maxRetries: 1.5 })).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid loop config
        - maxRetries: must be an integer from 0 to 50 (received 1.5)]
    `);
  });

  it('a missing attempt', () => {
    expect(create({ validate: steps.validate })).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid loop config
        - attempt: must be a function (received undefined)]
    `);
  });

  it('several problems at once, and a misspelt option', () => {
    expect(
      create({
        attempt: 'nope',
        validate: steps.validate,
        maxAttempts: 0,
        stall: { after: 1 },
        maxRetry: 3,
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
        [LoopConfigError: loopchart: invalid loop config
          - maxAttempts: must be an integer from 1 to 100 (received 0)
          - stall.after: must be an integer from 2 to 50 (received 1)
          - attempt: must be a function (received "nope")
          - maxRetry: is not an option (did you mean maxRetries?)]
      `);
  });

  it('runLoop rejects with the same error and never calls a step', async () => {
    const attempt = counted(() => 'x');
    const error = await runLoop({ attempt, validate: steps.validate, maxCost: -5 }, 'q').catch(
      (e: unknown) => e,
    );
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toContain(
      'maxCost: must be a finite number > 0 (received -5)',
    );
    expect(attempt.calls).toBe(0);
  });

  it('defaults maxAttempts to 2 × (maxRetries + 1), capped at 100', () => {
    expect(resolveConfig({ ...steps }).maxAttempts).toBe(8);
    expect(resolveConfig({ ...steps, maxRetries: 0 }).maxAttempts).toBe(2);
    expect(resolveConfig({ ...steps, maxRetries: 50 }).maxAttempts).toBe(100);
    expect(resolveConfig({ ...steps, maxRetries: 50, maxAttempts: 7 }).maxAttempts).toBe(7);
  });
});
