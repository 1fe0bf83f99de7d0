import { fc, test } from '@fast-check/vitest';
import { findUnboundedCycles } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { elementaryCycles } from '../src/tools/analysis/elementaryCycles.js';
import { stronglyConnected } from '../src/tools/analysis/stronglyConnected.js';

// The cycle search against a brute-force enumeration on small random graphs.

/** Every elementary cycle, by trying every simple path from its smallest vertex. */
function bruteForce(n: number, successors: number[][]): string[] {
  const found: string[] = [];
  const walk = (start: number, path: number[]) => {
    const last = path[path.length - 1] as number;
    for (const next of successors[last] ?? []) {
      if (next === start) found.push(path.join(','));
      else if (next > start && !path.includes(next)) walk(start, [...path, next]);
    }
  };
  for (let start = 0; start < n; start++) walk(start, [start]);
  return found.sort();
}

const graphs = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }), {
      minLength: n,
      maxLength: n,
    }),
  ),
);

describe('elementaryCycles', () => {
  test.prop([graphs], { numRuns: 300 })(
    'finds exactly the elementary cycles',
    ([n, successors]) => {
      const found = elementaryCycles(n, successors, 10_000).map((cycle) => cycle.join(','));
      expect(found.sort()).toEqual(bruteForce(n, successors));
    },
  );

  test.prop([graphs], { numRuns: 100 })(
    'stops at the limit and keeps only accepted cycles',
    ([n, successors]) => {
      const all = bruteForce(n, successors).length;
      expect(elementaryCycles(n, successors, 2).length).toBe(Math.min(2, all));
      const odd = elementaryCycles(n, successors, 10_000, (cycle) => cycle.length % 2 === 1);
      expect(odd.every((cycle) => cycle.length % 2 === 1)).toBe(true);
    },
  );

  it('walks a 50,000-state cycle without overflowing the stack', () => {
    const n = 50_000;
    const successors = Array.from({ length: n }, (_, v) => [(v + 1) % n]);
    expect(elementaryCycles(n, successors, 10).map((cycle) => cycle.length)).toEqual([n]);
  });

  it('starts each cycle at its smallest state', () => {
    expect(elementaryCycles(3, [[1], [2], [0]], 10)).toEqual([[0, 1, 2]]);
    expect(elementaryCycles(3, [[1], [0, 2], [1]], 10)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});

describe('stronglyConnected', () => {
  it('groups a long chain with a back edge into one component, without recursion limits', () => {
    const n = 50_000;
    const successors = Array.from({ length: n }, (_, v) => [(v + 1) % n]);
    const components = stronglyConnected(
      Array.from({ length: n }, (_, v) => v),
      successors,
    );
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(n);
  });

  it('ignores edges leaving the vertices it is given', () => {
    expect(stronglyConnected([0, 1], [[1], [0, 2], [0]], (v) => v < 2)).toEqual([[1, 0]]);
  });
});

describe('findUnboundedCycles on a long machine', () => {
  it('reports a 5,000-state ring of timers as one cycle', () => {
    const size = 5000;
    const states = Object.fromEntries(
      Array.from({ length: size }, (_, i) => [`s${i}`, { after: { 10: `s${(i + 1) % size}` } }]),
    );
    const cycles = findUnboundedCycles(createMachine({ id: 'ring', initial: 's0', states }));
    expect(cycles.map((cycle) => cycle.states.length)).toEqual([size]);
    expect(cycles[0]?.edges.every((edge) => edge.kind === 'after')).toBe(true);
  });
});
