import { createLoopMachine, type LoopConfig } from 'loopchart';
import { machineGraph } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';

// The machine holds only what its config can reach, so 100% transition coverage is demandable.
// Each test pins a gap the path tests once found (a branch or final state no run could take).

type Options = Omit<LoopConfig<string, string>, 'attempt' | 'validate'>;
const graphOf = (options: Options) =>
  machineGraph(
    createLoopMachine<string, string>({
      attempt: () => 'draft',
      validate: () => ({ valid: true }),
      ...options,
    }),
  );
const keysOf = (options: Options) => graphOf(options).nodes.map((node) => node.key);

describe('the machine holds only what its config can reach', () => {
  it.each<[string, Options]>([
    ['defaults', {}],
    ['a fallback', { fallback: () => 'template' }],
    ['a fallback and a budget', { fallback: () => 'template', maxCost: 5 }],
    ['the ceiling below the retry budget', { maxRetries: 3, maxAttempts: 2, maxCost: 5 }],
    ['a single attempt', { maxRetries: 2, maxAttempts: 1 }],
    [
      'review and stall',
      { review: { beforeProceed: true, afterFailedValidation: true }, stall: { after: 2 } },
    ],
  ])(
    'with %s, every eventless state ends in an unguarded branch, so no override can strand it',
    (_name, options) => {
      const { edges } = graphOf(options);
      const sources = new Set(
        edges.filter((edge) => edge.kind === 'always').map((edge) => edge.source),
      );
      for (const source of sources) {
        const last = edges
          .filter((edge) => edge.source === source && edge.kind === 'always')
          .at(-1);
        expect(last?.guard, source).toBeUndefined();
      }
    },
  );

  it('with a fallback, routing falls back otherwise, and no branch after it is dead', () => {
    const routing = graphOf({ fallback: () => 'template' }).edges.filter(
      (edge) => edge.source === 'loop.routing',
    );
    expect(routing.at(-1)).toMatchObject({ target: 'loop.fallingBack' });
    expect(routing.at(-1)?.guard).toBeUndefined();
  });

  it('with every step idempotent, unknown_outcome is left out: no final state is unentered', () => {
    // Needed: `...(shape.hasNonIdempotentStep && { unknown_outcome: final('unknown_outcome') })`.
    const graph = graphOf({ idempotent: true });
    const entered = new Set(graph.edges.map((edge) => edge.target));
    const unentered = graph.nodes.filter((node) => node.type === 'final' && !entered.has(node.id));
    expect(unentered.map((node) => node.key)).toEqual([]);
  });

  it('with maxAttempts below stall.after, stalled is left out: too few validations can run', () => {
    // Each validation follows an attempt (or a review edit), so without review stall needs
    // min(maxRetries + 1, maxAttempts) >= stall.after. Needed in shapeOf: canStall uses that bound.
    expect(keysOf({ maxRetries: 3, maxAttempts: 2 })).not.toContain('stalled');
  });

  it('with maxAttempts ≤ maxRetries, the retry budget can never be spent, so iteration_exhausted is left out', () => {
    // The ceiling stops the loop before the refine budget runs out, so routing's fallthrough
    // (→ iteration_exhausted, or → fallingBack with a fallback) is unreachable. Needed in shapeOf:
    // `canExhaust = maxAttempts > maxRetries`; without it the last refine branch can be
    // `{ guard: 'withinCeiling', target: 'refining' }` followed by `{ target: 'ceiling_stop' }`.
    expect(keysOf({ maxRetries: 3, maxAttempts: 2 })).not.toContain('iteration_exhausted');
    expect(keysOf({ maxRetries: 3, maxAttempts: 3, fallback: () => 'template' })).not.toContain(
      'fallingBack',
    );
  });

  it('with maxAttempts 1, nothing can run a second attempt, so refining and the re-attempt branches are left out', () => {
    // Needed in shapeOf: `canRefine = maxRetries > 0 && maxAttempts > 1`, and no
    // waitingToRetry → attempting (failedInAttempt) or attemptGate → attempting when maxAttempts is 1.
    const graph = graphOf({ maxRetries: 2, maxAttempts: 1 });
    expect(graph.nodes.map((node) => node.key)).not.toContain('refining');
    const reattempts = graph.edges.filter(
      (edge) => edge.target === 'loop.attempting' && edge.source !== 'loop.refining',
    );
    expect(reattempts.map((edge) => `${edge.source} if ${edge.guard ?? 'otherwise'}`)).toEqual([]);
  });
});
