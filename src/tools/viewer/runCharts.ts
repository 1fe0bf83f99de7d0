import { createHash } from 'node:crypto';
import type { AnyStateMachine } from 'xstate';
import { type MachineJson, toMachineJson } from '../diagram/toMachineJson.js';
import { activeLeaves } from './activeLeaves.js';
import type { ChartLayout } from './ChartLayout.js';
import { type ChartPath, chartPathOf } from './chartPath.js';
import { type CycleVerdict, cycleVerdicts, withCycleVerdicts } from './cycleVerdicts.js';
import { machineFromDefinition } from './graphFromDefinition.js';
import type { RunView } from './runView.js';

/** Charts kept (each run's latest, and those of runs that took the same path, are shared). */
const MAX_CHARTS = 32;

/**
 * What a run's chart became: its id, or why it could not be drawn; `chartPending` while it is laid
 * out again for the path the run took since.
 */
export interface ChartOutcome {
  chartId?: string;
  chartError?: string;
  chartPending: boolean;
}

/** The live viewer's charts: one per machine and path, laid out again as a run's path grows. */
export interface RunCharts {
  /** A run's root machine definition arrived: its first chart is the machine without a path. */
  define(runId: string, definition: string): void;
  /** The run's view changed: when it reached a state it had not, its chart is laid out again. */
  update(run: RunView): void;
  /** A chart by id, for the pages (an `Error` if it could not be drawn). */
  get(chartId: string): Promise<ChartLayout | Error> | undefined;
  forget(runId: string): void;
}

/** Lays a machine definition out, for a run's path if given (`createChartLayouter`'s `layout`). */
export type LayoutDefinition = (
  definition: string,
  options: { path?: ChartPath },
) => Promise<ChartLayout>;

interface RunChart {
  definitionId: string;
  definition: string;
  /** Read once its first chart is drawn (the layout checked its size first); none when simplified. */
  read?: { machine: AnyStateMachine; graph: MachineJson };
  /** The termination check's verdicts on its loops, asked once, on the first chart. */
  verdicts?: Map<string, CycleVerdict>;
  /** The states seen so far (steps, trace, value) and the status: a change lays it out again. */
  seen: Set<string>;
  status: string;
  steps?: RunView['steps'];
  /** The chart the run shows, and one being laid out (at most one at a time per run). */
  shown?: string;
  busy: boolean;
  pending?: RunView;
}

/**
 * Keeps each live run's chart laid out for the path it took so far (see `layoutChart`'s `path`):
 * a new chart when the run reaches a state it had not, and once more when it ends. Layouts run
 * one at a time per run, the newest view wins; `attach` hears each chart a run should show,
 * `onError` what went wrong in it.
 * @example const charts = runCharts((runId, chart) => store.setChart(runId, chart), layouter.layout);
 */
export function runCharts(
  attach: (runId: string, chart: ChartOutcome) => void,
  layout: LayoutDefinition,
  onError: (error: unknown) => void = () => {},
): RunCharts {
  const charts = new Map<string, Promise<ChartLayout | Error>>();
  const runs = new Map<string, RunChart>();

  const chart = (id: string, make: () => Promise<ChartLayout>) => {
    let made = charts.get(id);
    if (!made) {
      if (charts.size >= MAX_CHARTS) charts.delete(charts.keys().next().value as string);
      made = make().catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      );
      charts.set(id, made);
    }
    return made;
  };
  const draw = async (runId: string, entry: RunChart, path: ChartPath | undefined) => {
    entry.busy = true;
    const id = path ? `${entry.definitionId}-${hash(JSON.stringify(path))}` : entry.definitionId;
    const laidOut = await chart(id, async () => {
      const drawn = await layout(entry.definition, path ? { path } : {});
      // A chart drawn simply (past the layout budget) stays as it is: no path, no verdicts.
      if (drawn.simplified !== undefined) return drawn;
      entry.read ??= readDefinition(entry.definition);
      const { machine } = entry.read;
      return withCycleVerdicts(drawn, () => {
        entry.verdicts ??= cycleVerdicts(machine);
        return entry.verdicts;
      });
    });
    entry.busy = false;
    if (runs.get(runId) !== entry) return;
    const next = entry.pending;
    entry.pending = undefined;
    const chartPending = next !== undefined;
    if (laidOut instanceof Error) {
      const first = entry.shown === undefined;
      attach(runId, {
        ...(first ? { chartError: laidOut.message.slice(0, 300) } : {}),
        chartPending,
      });
    } else {
      entry.shown = id;
      attach(runId, { chartId: id, chartPending });
    }
    if (next) redraw(next, entry);
  };
  const redraw = (run: RunView, entry: RunChart) => {
    if (entry.busy) {
      if (!entry.pending) attach(run.id, { chartPending: true });
      entry.pending = run;
      return;
    }
    let path: ChartPath | undefined;
    try {
      if (!entry.read) throw new Error('not read: drawn simply, or not at all');
      path = chartPathOf(entry.read.graph, run);
    } catch {
      attach(run.id, { chartPending: false });
      return; // a chart drawn simply, or not at all, stays as it is
    }
    draw(run.id, entry, path.states.length > 0 ? path : undefined).catch(onError);
  };

  return {
    define(runId, definition) {
      if (runs.has(runId)) return;
      const entry: RunChart = {
        definitionId: hash(definition),
        definition,
        seen: new Set(),
        status: '',
        busy: false,
      };
      runs.set(runId, entry);
      draw(runId, entry, undefined).catch(onError);
    },
    update(run) {
      const entry = runs.get(run.id);
      if (!entry || !grew(entry, run)) return;
      redraw(run, entry);
    },
    get: (chartId) => charts.get(chartId),
    forget: (runId) => runs.delete(runId),
  };
}

/** The machine a definition describes, and its graph. */
function readDefinition(definition: string) {
  const machine = machineFromDefinition(definition);
  return { machine, graph: toMachineJson(machine) };
}

/** Whether the run reached a state it had not, or its status changed (cheap: newest parts only). */
function grew(entry: RunChart, run: RunView): boolean {
  const states: string[] = [...activeLeaves(run.value)];
  if (run.steps !== entry.steps) {
    entry.steps = run.steps;
    states.push(...(run.steps?.at(-1) ?? []));
  }
  const traced = (run.trace.at(-1) as { state?: unknown } | undefined)?.state;
  if (typeof traced === 'string') states.push(traced);
  let grown = run.status !== entry.status;
  entry.status = run.status;
  for (const state of states) {
    if (entry.seen.has(state)) continue;
    entry.seen.add(state);
    grown = true;
  }
  return grown;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
