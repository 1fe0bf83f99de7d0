import type { ChartLayout } from './ChartLayout.js';
import type { ChartPath } from './chartPath.js';
import { startElkWorker } from './elkWorker.js';
import { fallbackLayout } from './fallbackLayout.js';
import { graphFromDefinition } from './graphFromDefinition.js';
import { layoutChart, MAX_CHART_STATES } from './layoutChart.js';

/** What the viewer spends on one chart before it draws it simply. */
export interface LayoutBudget {
  /** ELK's time for one chart, on a thread of its own. Default 10,000 ms. */
  timeMs?: number;
  /** Charts with more states go straight to the simple layout. Default 400. */
  maxStates?: number;
  /** …or more transitions. Default 200. */
  maxTransitions?: number;
}

/** Lays out the charts of reported machines off the thread that serves requests. */
export interface ChartLayouter {
  /**
   * The chart of a machine definition (the inspector's raw config JSON), laid out around a run's
   * `path` if given (see `layoutChart`); rejects if unreadable.
   */
  layout(definition: string, options?: { path?: ChartPath }): Promise<ChartLayout>;
  /** Stops the layout thread. */
  close(): Promise<void>;
}

export const DEFAULT_LAYOUT_BUDGET: Required<LayoutBudget> = {
  timeMs: 10_000,
  maxStates: MAX_CHART_STATES,
  maxTransitions: 200,
};
/** Past these (counted on the raw config) the machine is not read at all, so not drawn. */
const READ_LIMIT = { states: 500, transitions: 1_500 };
const ELK_MEMORY_MB = 512;
const MAX_QUEUED = 32;

/**
 * The viewer's chart layout within a time and size budget, so serving never waits on it: ELK
 * runs on a worker thread, stopped after `timeMs` (or 512 MB); a machine over `maxStates` or
 * `maxTransitions`, one ELK gave up on, or one met while 32 charts wait, is drawn by
 * `fallbackLayout` in linear time (its `simplified` says why). What stays on the calling thread
 * is bounded by the budget: XState reads at most 500 states and 1,500 transitions (counted on
 * the raw config first; more is refused), label placement sees at most `maxTransitions` edges.
 * @example const layouter = createChartLayouter({ timeMs: 2000 });
 *          const chart = await layouter.layout(actorEvent.definition);
 */
export function createChartLayouter(budget: LayoutBudget = {}): ChartLayouter {
  const limits = { ...DEFAULT_LAYOUT_BUDGET, ...budget };
  const elk = startElkWorker({
    timeMs: limits.timeMs,
    maxMemoryMb: ELK_MEMORY_MB,
    maxQueued: MAX_QUEUED,
  });
  return {
    layout: async (definition, options = {}) => {
      const size = countDefinition(definition);
      if (size.states > READ_LIMIT.states || size.transitions > READ_LIMIT.transitions) {
        const over =
          size.states > READ_LIMIT.states
            ? `more than ${READ_LIMIT.states} states`
            : `${size.transitions} transitions`;
        throw new Error(
          `the machine has ${over}; the viewer draws at most ${READ_LIMIT.states} states and ${READ_LIMIT.transitions} transitions`,
        );
      }
      const graph = graphFromDefinition(definition);
      const [states, transitions] = [graph.nodes.length, graph.edges.length];
      if (states > limits.maxStates || transitions > limits.maxTransitions) {
        return fallbackLayout(
          graph,
          `${states} states and ${transitions} transitions: past the layout budget (${limits.maxStates} states, ${limits.maxTransitions} transitions)`,
        );
      }
      if (!elk) return fallbackLayout(graph, 'elkjs is not installed (npm install elkjs@0.12)');
      try {
        return await layoutChart(graph, { ...options, runElk: elk.layout });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return fallbackLayout(graph, `ELK: ${reason.slice(0, 200)}`);
      }
    },
    close: async () => {
      await elk?.close();
    },
  };
}

/**
 * States and transitions in a raw machine config, counted without XState (an upper estimate:
 * every `on`, `after`, `always` and invoke/`onDone` entry once). Throws if it is not JSON.
 */
function countDefinition(definition: string): { states: number; transitions: number } {
  const entries = (value: unknown) =>
    Array.isArray(value) ? value.length : value === undefined || value === null ? 0 : 1;
  const fields = (value: unknown) =>
    isRecord(value) ? Object.values(value).reduce<number>((sum, v) => sum + entries(v), 0) : 0;
  const size = { states: 0, transitions: 0 };
  const stack: unknown[] = [JSON.parse(definition)];
  while (stack.length > 0 && size.states <= READ_LIMIT.states) {
    const node = stack.pop();
    if (!isRecord(node)) continue;
    size.states += 1;
    size.transitions += fields(node.on) + fields(node.after) + entries(node.always);
    size.transitions += entries(node.onDone);
    for (const invoke of [node.invoke].flat()) {
      if (isRecord(invoke)) size.transitions += entries(invoke.onDone) + entries(invoke.onError);
    }
    if (isRecord(node.states)) for (const child of Object.values(node.states)) stack.push(child);
  }
  return size;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
