import type { ChartLayout, RunView, RunViewer } from 'loopchart/viewer';
import { startViewer } from 'loopchart/viewer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toMachineJson } from '../src/tools/diagram/toMachineJson.js';
import { fallbackLayout } from '../src/tools/viewer/fallbackLayout.js';
import { heldOutApps } from './analysis-corpus/heldOutApps.js';
import { otherApps } from './analysis-corpus/otherApps.js';
import { xstateApps } from './analysis-corpus/xstateApps.js';
import { openSocket } from './browser/support/viewerTestKit.js';
import { definitionOf, ringMachine, wizardMachine } from './support/bigMachines.js';
import { watchEventLoop } from './support/eventLoopWatch.mjs';

// Issue 29: ELK ran on the thread that serves the viewer. A 23-state wizard froze every reply for
// 53 s; a 300-state machine for minutes. Each test here failed on 38be5e8 (timed out, blocked).

const CHART_WAIT = { timeout: 20_000, interval: 50 };

/** Reports a machine to the viewer as an inspector would: its actor (with the definition), then a snapshot. */
async function report(viewer: RunViewer, machine: { config: unknown }, rootId: string) {
  const reporter = await openSocket(viewer.inspectUrl);
  const common = { sessionId: rootId, rootId };
  reporter.send(
    JSON.stringify({ type: '@xstate.actor', ...common, definition: definitionOf(machine) }),
  );
  reporter.send(
    JSON.stringify({
      type: '@xstate.snapshot',
      ...common,
      event: { type: 'xstate.init' },
      snapshot: { status: 'active', value: 'step0', context: {} },
    }),
  );
  return reporter;
}

/** Watches like the page does: every chart the viewer sends, by id, and the latest run views. */
async function watch(viewer: RunViewer) {
  const watcher = await openSocket(`ws://127.0.0.1:${viewer.port}/watch`, {
    origin: `http://127.0.0.1:${viewer.port}`,
  });
  const charts = new Map<string, ChartLayout>();
  const runs = new Map<string, RunView>();
  watcher.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      id: string;
      layout: ChartLayout;
      run: RunView;
    };
    if (message.type === 'chart') charts.set(message.id, message.layout);
    if (message.type === 'run') runs.set(message.run.id, message.run);
  });
  return { watcher, charts, runs };
}

/** Waits until the watcher has the chart of the run whose root is `rootId`, and returns it. */
const chartOf = (watched: Awaited<ReturnType<typeof watch>>, rootId: string) =>
  vi.waitFor(() => {
    const run = [...watched.runs.values()].find((view) => view.id.endsWith(`/${rootId}`));
    const layout = watched.charts.get(run?.chartId ?? '');
    expect(layout).toBeDefined();
    return layout as ChartLayout;
  }, CHART_WAIT);

/**
 * Runs `work` while watching this process's event loop (where the viewer runs: `blocked` lists the
 * stretches its own work held it over a second) and asking for the run list every 50 ms, each of
 * which must be answered.
 */
async function whileServing<T>(viewer: RunViewer, work: () => Promise<T>) {
  const watch = watchEventLoop();
  let probing = true;
  let answered = 0;
  const probes = (async () => {
    while (probing) {
      const response = await fetch(`${viewer.url}api/runs`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      answered += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const result = await work();
    return { result, blocked: watch.seen().blocked, answered };
  } finally {
    probing = false;
    await probes;
    watch.stop();
  }
}

describe('the viewer lays charts out off the thread that serves it', () => {
  let viewer: RunViewer;
  beforeAll(async () => {
    // ELK needs over 30 s for the wizard; past 3 s it is stopped and the chart drawn simply
    viewer = await startViewer({ port: 0, layoutBudget: { timeMs: 3_000 } });
  });
  afterAll(() => viewer.close());

  it('keeps answering while ELK works on the 23-state wizard (82 transitions), then draws it', async () => {
    const machine = wizardMachine();
    expect(toMachineJson(machine).edges).toHaveLength(82);
    const { watcher, charts, runs } = await watch(viewer);
    const { result, blocked, answered } = await whileServing(viewer, async () => {
      const reporter = await report(viewer, machine, 'w:0');
      await vi.waitFor(() => {
        const run = [...runs.values()].find((view) => view.id.endsWith('/w:0'));
        expect(run?.chartId).toBeDefined();
        return charts.get(run?.chartId ?? '');
      }, CHART_WAIT);
      reporter.close();
      return [...runs.values()].find((view) => view.id.endsWith('/w:0'));
    });
    expect(blocked).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    const chart = charts.get(result?.chartId ?? '');
    expect(
      chart?.nodes.filter((node) => node.type === 'atomic' || node.type === 'final'),
    ).toHaveLength(23);
    watcher.close();
  }, 30_000);

  it('draws a 300-state machine (900 transitions) with the simple layout at once, past the size budget', async () => {
    const watched = await watch(viewer);
    const { result, blocked } = await whileServing(viewer, async () => {
      const reporter = await report(viewer, ringMachine(300), 'r:0');
      const chart = await chartOf(watched, 'r:0');
      reporter.close();
      return chart;
    });
    expect(blocked).toEqual([]);
    expect(result.simplified).toMatch(/301 states and 900 transitions: past the layout budget/);
    expect(result.nodes.filter((node) => node.type === 'atomic')).toHaveLength(300);
    expect(result.edges.filter((edge) => edge.kind === 'event')).toHaveLength(900);
    watched.watcher.close();
  });

  it('counts transitions, not only states: 12 states with 240 transitions are past the budget', async () => {
    const watched = await watch(viewer);
    const dense = { config: { ...ringMachine(12).config } };
    const states = dense.config.states as Record<string, { on: Record<string, string> }>;
    for (const [key, state] of Object.entries(states)) {
      for (let i = 0; i < 17; i += 1) state.on[`JUMP${i}`] = `s${(Number(key.slice(1)) + i) % 12}`;
    }
    const reporter = await report(viewer, dense, 'd:0');
    const chart = await chartOf(watched, 'd:0');
    expect(chart.simplified).toMatch(/13 states and 240 transitions: past the layout budget/);
    reporter.close();
    watched.watcher.close();
  });

  it('refuses to read a machine past 500 states, saying why, without blocking', async () => {
    const { watcher, runs } = await watch(viewer);
    const { result, blocked } = await whileServing(viewer, async () => {
      const reporter = await report(viewer, ringMachine(2_000), 'big:0');
      const run = await vi.waitFor(() => {
        const view = [...runs.values()].find((v) => v.id.endsWith('/big:0'));
        expect(view?.chartError).toBeDefined();
        return view as RunView;
      }, CHART_WAIT);
      reporter.close();
      return run;
    });
    expect(blocked).toEqual([]);
    expect(result.chartError).toMatch(
      /more than 500 states; the viewer draws at most 500 states and 1500 transitions/,
    );
    watcher.close();
  });
});

describe('an ELK run past its time budget', () => {
  it('is stopped, and the chart drawn simply, saying why', async () => {
    const viewer = await startViewer({ port: 0, layoutBudget: { timeMs: 300 } });
    try {
      const watched = await watch(viewer);
      const { result, blocked } = await whileServing(viewer, async () => {
        const reporter = await report(viewer, wizardMachine(), 'w:0');
        const chart = await chartOf(watched, 'w:0');
        reporter.close();
        return chart;
      });
      expect(blocked).toEqual([]);
      expect(result.simplified).toBe('ELK: the layout took longer than 300 ms');
      watched.watcher.close();
    } finally {
      await viewer.close();
    }
  });
});

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the simple fallback layout', () => {
  const machines = [
    ...[...heldOutApps, ...otherApps, ...xstateApps].map(
      (entry) => [entry.name, entry.machine] as const,
    ),
    ['a 300-state ring', ringMachine(300)] as const,
    ['the wizard', wizardMachine()] as const,
  ];
  it.each(machines)(
    'draws %s: every state boxed inside its parent, siblings apart, every edge routed',
    (_name, machine) => {
      const graph = toMachineJson(machine);
      const chart = fallbackLayout(graph, 'a test');
      const boxes = new Map(chart.nodes.map((node) => [node.id, node]));
      for (const node of graph.nodes.slice(1)) expect(boxes.has(node.id)).toBe(true);
      const whole = { x: 0, y: 0, width: chart.width, height: chart.height };
      const outside: string[] = [];
      const overlapping: string[] = [];
      const siblings = new Map<string | undefined, typeof graph.nodes>();
      for (const node of graph.nodes)
        siblings.set(node.parent, [...(siblings.get(node.parent) ?? []), node]);
      for (const node of graph.nodes) {
        const box = boxes.get(node.id);
        const parent = node.parent === undefined ? undefined : (boxes.get(node.parent) ?? whole);
        if (box && parent && !inside(box, parent)) outside.push(node.id);
        for (const sibling of siblings.get(node.parent) ?? []) {
          const other = boxes.get(sibling.id);
          if (sibling !== node && box && other && overlap(box, other)) overlapping.push(node.id);
        }
      }
      expect({ outside, overlapping }).toEqual({ outside: [], overlapping: [] });
      const drawn = graph.edges.filter((edge) => edge.target !== graph.nodes[0]?.id);
      for (const edge of drawn) {
        const routed = chart.edges.find((e) => e.id === edge.id);
        expect(routed?.points.length).toBeGreaterThanOrEqual(2);
      }
      expect(chart.simplified).toBe('a test');
    },
  );
});
