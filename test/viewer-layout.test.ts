import { createLoopMachine } from 'loopchart';
import { toMachineJson } from 'loopchart/analysis';
import { type ChartLayout, layoutChart } from 'loopchart/viewer';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';

/** Distance from a point to a box's outline (0 on the border). */
function distanceToBox(
  [x, y]: [number, number],
  box: { x: number; y: number; width: number; height: number },
) {
  const dx = Math.max(box.x - x, 0, x - (box.x + box.width));
  const dy = Math.max(box.y - y, 0, y - (box.y + box.height));
  const outside = Math.hypot(dx, dy);
  if (outside > 0) return outside;
  return Math.min(x - box.x, box.x + box.width - x, y - box.y, box.y + box.height - y);
}

/** Every edge starts on its source's outline and ends on its target's (absolute coordinates). */
function expectRoutesTouchTheirStates(layout: ChartLayout) {
  const box = new Map(layout.nodes.map((node) => [node.id, node]));
  for (const edge of layout.edges) {
    const [first, last] = [edge.points[0], edge.points.at(-1)];
    expect(edge.points.length, edge.id).toBeGreaterThanOrEqual(2);
    const source = box.get(edge.source);
    const target = box.get(edge.target);
    if (!first || !last || !source || !target)
      throw new Error(`edge ${edge.id} has no route or states`);
    expect(distanceToBox(first, source), `${edge.id} starts at ${edge.source}`).toBeLessThan(2);
    expect(distanceToBox(last, target), `${edge.id} ends at ${edge.target}`).toBeLessThan(2);
  }
}

describe('layoutChart (ELK layered, on the server)', () => {
  it('lays out the loop: every state boxed, routes from source to target, back-edges flagged', async () => {
    const layout = await layoutChart(
      toMachineJson(
        createLoopMachine({ attempt: () => 1, validate: () => ({ valid: true }), maxRetries: 5 }),
      ),
    );
    const ids = layout.nodes.map((node) => node.id);
    expect(ids).toEqual(
      expect.arrayContaining(['loop.attempting', 'loop.refining', 'loop#initial', 'loop#any']),
    );
    expect(layout.loopNode).toBe('loop.refining');
    expectRoutesTouchTheirStates(layout);
    const refineBack = layout.edges.find(
      (edge) => edge.source === 'loop.refining' && edge.target === 'loop.attempting',
    );
    expect(refineBack).toMatchObject({ backEdge: true, label: '↻ done.refine' });
    for (const node of layout.nodes) {
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
    }
  });

  it('nests compound states and places edges that cross levels in absolute coordinates', async () => {
    const machine = createMachine({
      id: 'nested',
      initial: 'outer',
      states: {
        outer: {
          initial: 'a',
          states: { a: { on: { NEXT: 'b' } }, b: { on: { BACK: 'a', OUT: '#nested.done' } } },
          on: { RESET: '.a' },
        },
        done: { type: 'final' },
      },
    });
    const layout = await layoutChart(toMachineJson(machine));
    const node = (id: string) => layout.nodes.find((n) => n.id === id);
    const outer = node('nested.outer');
    const a = node('nested.outer.a');
    if (!outer || !a) throw new Error('missing states');
    expect(a.x).toBeGreaterThan(outer.x);
    expect(a.y).toBeGreaterThan(outer.y);
    expect(a.x + a.width).toBeLessThan(outer.x + outer.width);
    expect(node('nested.outer#initial')).toBeDefined();
    expectRoutesTouchTheirStates(layout);
    expect(
      layout.edges.find(
        (edge) => edge.source === 'nested.outer.b' && edge.target === 'nested.outer.a',
      )?.backEdge,
    ).toBe(true);
    expect(layout.loopNode).toBeUndefined();
  });

  it('refuses to draw a machine too large to be useful', async () => {
    const states = Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`s${i}`, {}]));
    await expect(
      layoutChart(toMachineJson(createMachine({ id: 'big', initial: 's0', states }))),
    ).rejects.toThrow(/draws at most 400/);
  });
});
