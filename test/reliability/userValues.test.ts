import { isCheckpointError, MemoryCheckpointStore, runLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { cyclic, deeplyNested } from './support/hostileValues.js';

// The decision RELIABILITY.md records: a candidate is the user's own value. The outcome carries it
// by identity, unchanged (no sanitised copy that would differ from what the step returned); every
// field loopchart owns is JSON. A checkpointed run cannot store a candidate that is not JSON.

const nonJson: [string, () => unknown][] = [
  ['a cyclic object', cyclic],
  ['a BigInt', () => 10n ** 30n],
  ['arrays nested 100,000 deep', () => deeplyNested(100_000)],
];

describe.each(nonJson)('a candidate that is not JSON: %s', (_, make) => {
  it('is carried by identity; the rest of the outcome is JSON', async () => {
    const value = make();
    const outcome = await runLoop({ attempt: () => value, validate: () => ({ valid: true }) }, 'x');
    expect(outcome.status).toBe('proceed');
    if (outcome.status !== 'proceed') return;
    expect(outcome.candidate).toBe(value);
    expect(() => JSON.stringify(outcome)).toThrow();
    const { candidate: _candidate, ...owned } = outcome;
    expect(JSON.parse(JSON.stringify(owned))).toEqual(owned);
  });

  it('stops a checkpointed run with CheckpointError save_failed before its next step', async () => {
    let validations = 0;
    const error = await runLoop(
      {
        attempt: make,
        validate: () => {
          validations += 1;
          return { valid: true };
        },
      },
      'x',
      { store: new MemoryCheckpointStore(), runId: 'not-json' },
    ).catch((thrown: unknown) => thrown);
    expect(isCheckpointError(error) && error.code).toBe('save_failed');
    expect(validations).toBe(0);
  });
});
