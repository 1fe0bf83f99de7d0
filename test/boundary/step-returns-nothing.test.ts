/**
 * Issue 29: a step that returns nothing does not pass for a result. An attempt or a fallback that
 * returns `undefined` is a failed step (`permanent`, pointing at `emptyResult(reason)` for an
 * honest empty), in `runLoop` and in path tests; it never ends `{ ok: true, candidate: undefined }`.
 */

import {
  createLoopMachine,
  emptyResult,
  type LoopConfig,
  MemoryCheckpointStore,
  runLoop,
} from 'loopchart';
import { getLoopPaths, isLoopPathMismatchError } from 'loopchart/testing';
import { describe, expect, it } from 'vitest';

const correctable = {
  valid: false as const,
  error: { severity: 'correctable' as const, message: 'too short' },
};

describe('a step that returns undefined', () => {
  it('a fallback returning undefined fails the run instead of ending ok with no candidate', async () => {
    const config: LoopConfig<string, string> = {
      maxRetries: 0,
      attempt: () => 'draft',
      validate: () => correctable,
      fallback: () => undefined as unknown as string,
    };
    for (const options of [{}, { store: new MemoryCheckpointStore() }]) {
      const outcome = await runLoop(config, 'memo', options);
      expect(outcome).toMatchObject({ status: 'iteration_exhausted', ok: false, partial: 'draft' });
      expect(outcome.status !== 'paused' && outcome.rationale).toMatch(
        /fallback returned undefined.*emptyResult\(reason\)/,
      );
    }
  });

  it('an attempt returning undefined is a permanent failure, and emptyResult stays the honest empty', async () => {
    const nothing = await runLoop(
      { attempt: () => undefined, validate: () => ({ valid: true as const }) },
      'memo',
    );
    expect(nothing).toMatchObject({
      status: 'permanent_failure',
      ok: false,
      error: { cause: { step: 'attempt', kind: 'permanent' } },
    });
    const empty = await runLoop(
      {
        attempt: () => emptyResult('no invoice in the mail'),
        validate: () => ({ valid: true as const }),
      },
      'memo',
    );
    expect(empty).toMatchObject({
      status: 'empty',
      ok: true,
      empty: { reason: 'no invoice in the mail' },
    });
  });

  it('a path test with a real fallback returning undefined fails, naming the fallback', async () => {
    const steps = {
      attempt: () => 'draft',
      validate: () => correctable,
      fallback: () => undefined as unknown as string,
    };
    const machine = createLoopMachine<string, string>({ ...steps, maxRetries: 0 });
    const paths = getLoopPaths(machine, {
      input: 'memo',
      samples: { candidates: { correctable: 'draft' } },
      realSteps: steps,
    }).filter((path) => path.description === 'attempt → correctable → fallback ⇒ fallback');
    expect(paths).toHaveLength(1);
    const failure = await paths[0]?.replay().catch((error: unknown) => error);
    expect(isLoopPathMismatchError(failure)).toBe(true);
    expect(String(failure)).toMatch(/fallback returned undefined/);
  });
});
