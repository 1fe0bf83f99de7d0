/**
 * Issue 32, point 5: path tests are typed from the loop. Inline samples keep the candidate type;
 * samples (or real steps) without the loop's first input do not compile. Executed mode is typed
 * from the config too: inputs of `I`, external marks keyed by step name and typed `C`, `I` or
 * verdicts, the property given `LoopOutcome<C>`.
 */
import fc from 'fast-check';
import { createLoopMachine, type LoopConfig, type LoopOutcome } from 'loopchart';
import { checkLoopRuns, type ExecutedRun, getLoopPaths, type LoopPath } from 'loopchart/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';

interface Ask {
  topic: string;
}
interface Draft {
  words: string[];
}
const config: LoopConfig<Ask, Draft> = {
  maxRetries: 0,
  attempt: ({ input }) => ({ words: [input.topic] }),
  validate: (draft) => (draft.words.length ? { valid: true } : { valid: false }),
};
const machine = createLoopMachine(config);

describe('path test types', () => {
  it('keeps the candidate type of inline samples', async () => {
    const paths = getLoopPaths(machine, {
      input: { topic: 'tides' },
      samples: { candidates: { valid: (n) => ({ words: [`draft ${n}`] }) } },
    });
    expectTypeOf(paths).toEqualTypeOf<LoopPath<Draft>[]>();
    const passed = paths.find((path) => path.status === 'proceed' && !path.skipped);
    const found = await passed?.test();
    expect(found?.verdict).toBe('passed');
    if (found?.verdict === 'passed' && found.replay.outcome.status === 'proceed') {
      expectTypeOf(found.replay.outcome.candidate).toEqualTypeOf<Draft>();
      expect(found.replay.outcome.candidate.words).toEqual(['draft 1']);
    }
  });

  it('types scripted paths as unknown: their candidates are loopchart strings', () => {
    expectTypeOf(getLoopPaths(machine)).toEqualTypeOf<LoopPath<unknown>[]>();
  });

  it('refuses samples or real steps without the input, at compile time and at run time', () => {
    const samples = { candidates: { valid: { words: ['x'] } } };
    // @ts-expect-error samples without input: loopchart invents no value of the input type
    expect(() => getLoopPaths(machine, { samples })).toThrow(/^input: /);
    // @ts-expect-error real steps without input
    expect(() => getLoopPaths(machine, { realSteps: config })).toThrow(/^input: /);
    // @ts-expect-error a sample must be a Draft
    getLoopPaths(machine, { input: { topic: 't' }, samples: { candidates: { valid: 'x' } } });
  });

  it('types executed mode from the config: inputs, external marks by step name, the property', async () => {
    const words = fc.record({ words: fc.array(fc.string(), { maxLength: 2 }) });
    await checkLoopRuns(config, {
      input: fc.record({ topic: fc.string() }),
      external: { attempt: words, validate: true, refine: fc.record({ topic: fc.string() }) },
      numRuns: 5,
      property: (outcome, input, run) => {
        expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<Draft>>();
        expectTypeOf(input).toEqualTypeOf<Ask>();
        expectTypeOf(run).toEqualTypeOf<ExecutedRun>();
        return true;
      },
    });
    const input = fc.record({ topic: fc.string() });
    const refused = [
      // @ts-expect-error the input must be an arbitrary of the loop's input
      () => checkLoopRuns(config, { input: fc.string() }),
      // @ts-expect-error an external attempt answers the loop's candidate type
      () => checkLoopRuns(config, { input, external: { attempt: fc.string() } }),
      // @ts-expect-error an external refine answers the loop's input type
      () => checkLoopRuns(config, { input, external: { refine: words } }),
      // @ts-expect-error external marks are keyed by step name
      () => checkLoopRuns(config, { input, external: { classify: words } }),
      () =>
        // @ts-expect-error a generated failure kind is one of the four
        checkLoopRuns(config, { input, external: { attempt: { returns: words, throws: ['x'] } } }),
    ];
    expect(refused).toHaveLength(5);
  });
});
