import { createLoopMachine } from 'loopchart';
import { assertBoundedLoops, toMachineJson } from 'loopchart/analysis';
import { layoutChart } from 'loopchart/viewer';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { cycleVerdicts, withCycleVerdicts } from '../src/tools/viewer/cycleVerdicts.js';
import { machineFromDefinition } from '../src/tools/viewer/graphFromDefinition.js';
import { toJsonSafe } from '../src/tools/viewer/toJsonSafe.js';
import { valid } from './support/scriptedSteps.js';

const toggle = createMachine({
  id: 'toggle',
  initial: 'off',
  states: { off: { on: { TOGGLE: 'on' } }, on: { on: { TOGGLE: 'off' } } },
});
const trafficLight = createMachine({
  id: 'light',
  initial: 'green',
  states: {
    green: { after: { 1000: 'yellow' } },
    yellow: { after: { 500: 'red' } },
    red: { after: { 2000: 'green' } },
  },
});
const loop = createLoopMachine({ attempt: () => 'x', validate: () => valid, maxRetries: 3 });

/** Each back-edge of the machine's chart with the verdict the chart marks it with. */
async function backEdges(machine: Parameters<typeof toMachineJson>[0], verdictsOf = machine) {
  const layout = withCycleVerdicts(await layoutChart(toMachineJson(machine)), () =>
    cycleVerdicts(verdictsOf),
  );
  return Object.fromEntries(
    layout.edges.filter((edge) => edge.backEdge).map((edge) => [edge.id, edge.cycle]),
  );
}

describe('the verdicts the chart marks back-edges with (what the termination check says)', () => {
  it('a traffic light on timers is unbounded, every hop of it, as assertBoundedLoops says', async () => {
    expect(() => assertBoundedLoops(trafficLight)).toThrow();
    expect(await backEdges(trafficLight)).toEqual({
      'light.red:xstate.after.2000.light.red:0': 'unbounded',
    });
    expect([...cycleVerdicts(trafficLight).values()]).toEqual([
      'unbounded',
      'unbounded',
      'unbounded',
    ]);
  });

  it('an unguarded on/off cycle waits for an outside event each lap: gated', async () => {
    expect(await backEdges(toggle)).toEqual({ 'toggle.on:TOGGLE:0': 'gated' });
  });

  it("a loop's refine back-edge is capped, also read back from an inspector's definition", async () => {
    const refine = 'loop.refining:xstate.done.actor.refine:0';
    expect((await backEdges(loop))[refine]).toBe('capped');
    const definition = JSON.stringify(toJsonSafe(loop.config));
    const rebuilt = machineFromDefinition(definition);
    expect((await backEdges(loop, rebuilt))[refine]).toBe('capped');
    // The budget marks are on loopchart's guard names: a plain machine gains none.
    expect(cycleVerdicts(machineFromDefinition(JSON.stringify(trafficLight.config)))).toEqual(
      cycleVerdicts(trafficLight),
    );
  });
});
