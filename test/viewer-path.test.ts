import { createLoopMachine } from 'loopchart';
import { toMachineJson } from 'loopchart/analysis';
import { layoutChart, type RunView } from 'loopchart/viewer';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { activeLeaves, appendStep, MAX_STEPS } from '../src/tools/viewer/activeLeaves.js';
import { takenPath } from '../src/tools/viewer/page/takenPath.js';
import { distanceToRoute, placeEdgeLabels } from '../src/tools/viewer/placeEdgeLabels.js';
import { valid } from './support/scriptedSteps.js';

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const full = createLoopMachine({
  attempt: () => 'x',
  validate: () => valid,
  maxRetries: 5,
  fallback: () => 'f',
  maxCost: 3,
  review: { beforeProceed: true, afterFailedValidation: true },
});

describe('edge labels', () => {
  it('sit on their own edge, nearer it than any other edge, clear of states and of each other', async () => {
    const layout = await layoutChart(toMachineJson(full));
    const labelled = layout.edges.filter((edge) => edge.labelBox);
    expect(labelled.length).toBe(layout.edges.filter((e) => e.label && e.points.length > 1).length);
    const states = layout.nodes.filter((n) => n.type !== 'compound' && n.type !== 'parallel');
    for (const edge of labelled) {
      const box = edge.labelBox as NonNullable<typeof edge.labelBox>;
      const centre: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
      const own = distanceToRoute(centre, edge.points);
      const others = layout.edges.filter((o) => o.id !== edge.id && o.points.length > 1);
      const nearest = Math.min(...others.map((o) => distanceToRoute(centre, o.points)));
      expect(own, edge.label).toBeLessThan(nearest);
      expect(
        states.filter((n) => overlaps(box, n)).map((n) => n.id),
        edge.label,
      ).toEqual([]);
      const crowded = labelled.filter((o) => o !== edge && o.labelBox && overlaps(box, o.labelBox));
      expect(
        crowded.map((o) => o.label),
        edge.label,
      ).toEqual([]);
    }
  });

  it('moves a label off a spot another edge crosses when its route has a clear one', () => {
    const routes = [
      {
        id: 'a',
        label: 'A',
        points: [
          [0, 0],
          [200, 0],
        ] as Array<[number, number]>,
      },
      {
        id: 'b',
        label: '',
        points: [
          [100, -50],
          [100, 50],
        ] as Array<[number, number]>,
      },
    ];
    const box = placeEdgeLabels([], routes, () => ({ width: 20, height: 10 })).get('a');
    if (!box) throw new Error('no label box');
    expect(Math.abs(box.x + 10 - 100)).toBeGreaterThan(10); // not on the crossing at x = 100
    expect(box.y + 5).toBe(0); // on its own line
  });
});

describe('takenPath (the page reads a run onto its chart)', () => {
  it('counts each transition a loop took from its trace and final state', async () => {
    const machine = createLoopMachine({ attempt: () => 'x', validate: () => valid, maxRetries: 3 });
    const layout = await layoutChart(toMachineJson(machine));
    const states = ['attempting', 'validating', 'routing', 'refining'];
    const trace = [...states, ...states, 'attempting', 'validating', 'routing'].map((state) => ({
      state,
    }));
    const run = { value: 'proceed', trace } as unknown as RunView;
    const path = takenPath(layout, run);
    const count = (source: string, target: string) =>
      layout.edges
        .filter((e) => e.source === `loop.${source}` && e.target === `loop.${target}`)
        .reduce((sum, e) => sum + (path.taken.get(e.id) ?? 0), 0);
    expect(count('refining', 'attempting')).toBe(2);
    expect(count('attempting', 'validating')).toBe(3);
    expect(count('routing', 'proceed')).toBe(1);
    expect(count('routing', 'stalled')).toBe(0);
    expect(path.visited.has('loop.proceed')).toBe(true);
    expect(path.visited.has('loop.stalled')).toBe(false);
    expect([...path.current]).toEqual(['loop.proceed']);
  });

  it("follows a plain machine's steps through nested states, entering a compound by its initial state", async () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      states: {
        a: { on: { GO: 'b' } },
        b: { initial: 'x', states: { x: { on: { NEXT: 'y' } }, y: {} }, on: { BACK: 'a' } },
      },
    });
    const layout = await layoutChart(toMachineJson(machine));
    const steps = [['a'], ['b.x'], ['b.y'], ['a'], ['b.x']];
    const path = takenPath(layout, { value: { b: 'x' }, steps, trace: [] } as unknown as RunView);
    const count = (source: string, target: string) =>
      path.taken.get(
        layout.edges.find((e) => e.source === source && e.target === target)?.id ?? '',
      );
    expect(count('m.a', 'm.b')).toBe(2);
    expect(count('m.b.x', 'm.b.y')).toBe(1);
    expect(count('m.b', 'm.a')).toBe(1); // BACK is declared on b, left from b.y
    expect(count('m.b#initial', 'm.b.x')).toBe(2);
    expect([...path.current].sort()).toEqual(['m.b', 'm.b.x']);
  });
});

describe('takenPath through compound states', () => {
  it("leaves a compound by its done edge only from its final child, as a pipeline's layers do", async () => {
    const machine = createMachine({
      id: 'p',
      initial: 'layer1',
      states: {
        layer1: {
          initial: 'running',
          states: {
            running: { always: 'settling' },
            settling: { always: 'done' },
            done: { type: 'final' },
          },
          onDone: 'layer2',
        },
        layer2: { initial: 'running', states: { running: {} } },
      },
    });
    const layout = await layoutChart(toMachineJson(machine));
    const steps = [['layer1.running'], ['layer2.running']];
    const path = takenPath(layout, { value: { layer2: 'running' }, steps, trace: [] } as never);
    const taken = layout.edges
      .filter((edge) => path.taken.has(edge.id))
      .map((edge) => `${edge.source}>${edge.target}`);
    expect(taken).toEqual(
      expect.arrayContaining([
        'p.layer1.running>p.layer1.settling',
        'p.layer1.settling>p.layer1.done',
        'p.layer1>p.layer2',
        'p.layer2#initial>p.layer2.running',
      ]),
    );
    expect(path.visited.has('p.layer1.done')).toBe(true);
  });
});

describe('activeLeaves and appendStep (what the store keeps of a run’s path)', () => {
  it.each([
    ['attempting', ['attempting']],
    [{ red: 'walk' }, ['red.walk']],
    [{ p: { a: 'on', b: 'off' } }, ['p.a.on', 'p.b.off']],
    [42, []],
  ])('reads %j as %j', (value, leaves) => {
    expect(activeLeaves(value)).toEqual(leaves);
  });

  it('keeps changes only, and at most MAX_STEPS of them', () => {
    let steps = appendStep([], ['a']);
    steps = appendStep(steps, ['a']);
    steps = appendStep(steps, ['b']);
    expect(steps).toEqual([['a'], ['b']]);
    for (let i = 0; i < MAX_STEPS + 10; i += 1) steps = appendStep(steps, [`s${i}`]);
    expect(steps.length).toBe(MAX_STEPS);
    expect(steps.at(-1)).toEqual([`s${MAX_STEPS + 9}`]);
  });
});
