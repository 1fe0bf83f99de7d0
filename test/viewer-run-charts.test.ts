import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import type { ChartLayout } from '../src/tools/viewer/ChartLayout.js';
import type { ChartPath } from '../src/tools/viewer/chartPath.js';
import { graphFromDefinition } from '../src/tools/viewer/graphFromDefinition.js';
import { type ChartOutcome, runCharts } from '../src/tools/viewer/runCharts.js';
import type { RunView } from '../src/tools/viewer/runView.js';
import { toJsonSafe } from '../src/tools/viewer/toJsonSafe.js';

const machine = createMachine({
  id: 'light',
  initial: 'green',
  states: {
    green: { on: { T: 'yellow' } },
    yellow: { on: { T: 'red' } },
    red: { on: { T: 'green' } },
  },
});
const definition = JSON.stringify(toJsonSafe(machine.config));

function view(steps: string[][], status: RunView['status'] = 'active'): RunView {
  return {
    id: 'c1/x:0',
    label: 'light #1',
    machineId: 'light',
    status,
    connected: true,
    value: steps.at(-1)?.[0],
    steps,
    trace: [],
    startedAt: 0,
    updatedAt: 0,
    eventCount: 0,
    droppedEvents: 0,
    recentEvents: [],
  };
}

/** A layout function that records what it was asked for and answers when told to. */
function recordingLayout() {
  const asked: Array<string[] | undefined> = [];
  const answers: Array<() => void> = [];
  const layout = (definition: string, options: { path?: ChartPath }, simplified?: string) => {
    graphFromDefinition(definition); // what the viewer's layouter reads first
    asked.push(options.path?.states);
    return new Promise<ChartLayout>((resolve) => {
      const chart = { machineId: 'light', width: 1, height: 1, nodes: [], edges: [] };
      answers.push(() => resolve(simplified ? { ...chart, simplified } : chart));
    });
  };
  const settle = async () => {
    while (answers.length > 0) {
      answers.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { asked, layout, settle };
}

describe('runCharts (the live viewer lays a run out again as its path grows)', () => {
  it('lays a run out first without a path, then once per new state (in the order reached) and once when it ends', async () => {
    const { asked, layout, settle } = recordingLayout();
    const attached: ChartOutcome[] = [];
    const charts = runCharts((_run, chart) => attached.push(chart), layout);
    charts.define('c1/x:0', definition);
    charts.update(view([['green']]));
    await settle();
    charts.update(view([['green'], ['yellow']]));
    await settle();
    charts.update(view([['green'], ['yellow'], ['red']]));
    await settle();
    const lap = [['green'], ['yellow'], ['red'], ['green']];
    charts.update(view(lap)); // no state it had not reached: the same chart
    await settle();
    charts.update(view(lap, 'stopped')); // ended: laid out for the edges it took too
    await settle();
    expect(asked).toEqual([
      undefined,
      ['light.green'],
      ['light.green', 'light.yellow'],
      ['light.green', 'light.yellow', 'light.red'],
      ['light.green', 'light.yellow', 'light.red'],
    ]);
    const ids = attached.flatMap((chart) => chart.chartId ?? []);
    // The last two paths are the same states but not the same edges: a chart of its own each.
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect(attached.at(-1)?.chartPending).toBe(false);
    expect(charts.get(ids.at(-1) as string)).toBeDefined();
  });

  it('keeps one layout running per run, then lays out the newest view only', async () => {
    const { asked, layout, settle } = recordingLayout();
    const attached: ChartOutcome[] = [];
    const charts = runCharts((_run, chart) => attached.push(chart), layout);
    charts.define('c1/x:0', definition);
    charts.update(view([['green']]));
    charts.update(view([['green'], ['yellow']]));
    charts.update(view([['green'], ['yellow'], ['red']]));
    await settle();
    expect(asked).toEqual([undefined, ['light.green', 'light.yellow', 'light.red']]);
    // Pending while a newer path waits for its layout, settled once it is drawn.
    expect(attached.map((chart) => chart.chartPending)).toEqual([true, true, false]);
  });

  it('reports a definition XState cannot read as the chart error', async () => {
    const { layout, settle } = recordingLayout();
    const attached: ChartOutcome[] = [];
    const charts = runCharts(
      (_run, chart) => attached.push(chart),
      async (definition, options) => layout(definition, options),
    );
    charts.define('c1/x:0', '"not a machine"');
    await settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(attached).toEqual([
      { chartError: 'the definition is not a machine config object', chartPending: false },
    ]);
  });

  it('keeps a chart drawn simply (past the layout budget) as it is', async () => {
    const { asked, layout, settle } = recordingLayout();
    const attached: ChartOutcome[] = [];
    const charts = runCharts(
      (_run, chart) => attached.push(chart),
      (definition, options) => layout(definition, options, 'past the budget'),
    );
    charts.define('c1/x:0', definition);
    await settle();
    charts.update(view([['green'], ['yellow']]));
    await settle();
    expect(asked).toEqual([undefined]);
    expect(attached.at(-1)).toEqual({ chartPending: false });
    expect(attached.filter((chart) => chart.chartId)).toHaveLength(1);
  });
});
