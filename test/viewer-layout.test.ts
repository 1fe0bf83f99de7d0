import { createLoopMachine } from 'loopchart';
import { toMachineJson } from 'loopchart/analysis';
import { createPipelineMachine } from 'loopchart/pipeline';
import { type ChartLayout, layoutChart } from 'loopchart/viewer';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { chartPathOf } from '../src/tools/viewer/chartPath.js';
import type { RunView } from '../src/tools/viewer/runView.js';

type RunPath = Partial<Pick<RunView, 'value' | 'steps' | 'trace'>>;

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

  it('lays out a pipeline: every layer a compound with its stage states inside', async () => {
    const loop = { maxRetries: 2, attempt: () => 'x', validate: () => ({ valid: true as const }) };
    const machine = createPipelineMachine({
      id: 'report',
      stages: [
        { id: 'find', loop },
        { id: 'sum', dependsOn: ['find'], loop },
      ],
    });
    const layout = await layoutChart(toMachineJson(machine));
    const node = (id: string) => layout.nodes.find((n) => n.id === id);
    for (const layer of ['report.layer1', 'report.layer2']) {
      const box = node(layer);
      const running = node(`${layer}.running`);
      if (!box || !running) throw new Error(`${layer} is missing`);
      expect(box.type).toBe('compound');
      expect(running.x).toBeGreaterThan(box.x);
      expect(running.y + running.height).toBeLessThan(box.y + box.height);
    }
    expectRoutesTouchTheirStates(layout);
  });

  it('refuses to draw a machine too large to be useful', async () => {
    const states = Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`s${i}`, {}]));
    await expect(
      layoutChart(toMachineJson(createMachine({ id: 'big', initial: 's0', states }))),
    ).rejects.toThrow(/draws at most 400/);
  });
});

describe('edge labels in the laid-out chart, measured', () => {
  const overlaps = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  type Box = { x: number; y: number; width: number; height: number };

  /** Pairs of labels whose boxes overlap, and labels over a state box. */
  function crowding(layout: ChartLayout) {
    const labelled = layout.edges.filter((edge) => edge.labelBox);
    const box = (edge: (typeof labelled)[number]) => edge.labelBox as Box;
    const states = layout.nodes.filter((n) => n.type !== 'compound' && n.type !== 'parallel');
    return [
      ...labelled.flatMap((a, i) =>
        labelled
          .slice(i + 1)
          .filter((b) => overlaps(box(a), box(b)))
          .map((b) => `${a.label} / ${b.label}`),
      ),
      ...labelled.flatMap((edge) =>
        states.filter((s) => overlaps(box(edge), s)).map((s) => `${edge.label} on ${s.id}`),
      ),
    ];
  }

  const stage = { maxRetries: 2, attempt: () => 'row', validate: () => ({ valid: true as const }) };
  const machines = {
    loop: createLoopMachine({
      attempt: () => 1,
      validate: () => ({ valid: true }),
      maxRetries: 3,
      fallback: () => 2,
      review: { beforeProceed: true },
    }),
    pipeline: createPipelineMachine({
      id: 'revenue',
      stages: [
        { id: 'lookup', loop: stage },
        { id: 'compare', dependsOn: ['lookup'], loop: stage },
      ],
    }),
    crossing: createMachine({
      id: 'crossing',
      initial: 'green',
      states: {
        green: { on: { TIMER: 'yellow' } },
        yellow: { on: { TIMER: 'red' } },
        red: { initial: 'walk', states: { walk: { on: { GO: 'wait' } }, wait: {} } },
      },
      on: { POWER_CUT: '.green' },
    }),
  };
  const paths: Record<keyof typeof machines, RunPath> = {
    loop: {
      value: 'fallback',
      trace: ['attempting', 'failed', 'attempting', 'validating', 'routing', 'refining']
        .concat(['attempting', 'validating', 'routing', 'fallingBack'])
        .map((state) => ({ state })),
    },
    pipeline: {
      value: 'completed',
      steps: [['layer1.running'], ['layer2.running'], ['completed']],
    },
    crossing: {
      value: { red: 'wait' },
      steps: [['green'], ['yellow'], ['red.walk'], ['red.wait']],
    },
  };

  it.each(Object.keys(machines) as Array<keyof typeof machines>)(
    '%s: no label over another or over a state, laid out alone and around a run’s path',
    async (name) => {
      const graph = toMachineJson(machines[name]);
      const plain = await layoutChart(graph);
      const path = chartPathOf(graph, { trace: [], ...paths[name] });
      expect(path.edges.length).toBeGreaterThan(2);
      const framed = await layoutChart(graph, { path });
      for (const layout of [plain, framed]) {
        expect(layout.edges.filter((e) => e.label && e.points.length > 1 && !e.labelBox)).toEqual(
          [],
        );
        expect(crowding(layout)).toEqual([]);
        expectRoutesTouchTheirStates(layout);
      }
    },
  );
});

describe('what an edge says', () => {
  it('an unguarded eventless edge after guarded ones reads [else], a lone one always, a long one two lines', async () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      states: {
        a: { always: [{ guard: 'ready', target: 'b' }, { target: 'c' }] },
        b: { always: 'c' },
        c: { on: { 'done.retryDelay.somewhat.long': { guard: 'failedInAttempt', target: 'a' } } },
      },
    });
    const layout = await layoutChart(toMachineJson(machine));
    const label = (source: string, target: string) =>
      layout.edges.find((e) => e.source === `m.${source}` && e.target === `m.${target}`);
    expect(label('a', 'b')?.label).toBe('[ready]');
    expect(label('a', 'c')?.label).toBe('[else]');
    expect(label('b', 'c')?.label).toBe('always');
    expect(label('c', 'a')).toMatchObject({
      label: '↻ done.retryDelay.somewhat.long [failedInAttempt]',
      labelLines: ['↻ done.retryDelay.somewhat.long', '[failedInAttempt]'],
    });
    // Two lines tall, wide enough for the longer line and the count after the last.
    expect(label('c', 'a')?.labelBox?.height).toBe(32);
  });
});
