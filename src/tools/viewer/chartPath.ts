import type { MachineJson } from '../diagram/toMachineJson.js';
import { chartSkeleton } from './chartSkeleton.js';
import { takenPath } from './page/takenPath.js';
import type { RunView } from './runView.js';

/** What a run went through on a chart: state ids and edge ids, as `takenPath` reads them. */
export interface ChartPath {
  states: string[];
  edges: string[];
}

/**
 * The path a run took on its machine's chart, as `layoutChart`'s `path` option takes it: the
 * states the page marks visited (read the same way, from the run's steps or its trace and final
 * state) in the order the run first reached them, with the `any state` box when a machine-level
 * transition was taken, and the edges taken.
 * @example const layout = await layoutChart(graph, { path: chartPathOf(graph, run) });
 */
export function chartPathOf(
  graph: MachineJson,
  run: Pick<RunView, 'value' | 'steps' | 'trace'>,
): ChartPath {
  const skeleton = chartSkeleton(graph);
  const path = takenPath(skeleton, run);
  const edges = skeleton.edges.filter((edge) => path.taken.has(edge.id));
  const states = [...path.visited, ...edges.map((edge) => edge.source)];
  return {
    states: [...new Set(states)].filter((id) => !id.endsWith('#initial')),
    edges: edges.map((edge) => edge.id).sort(),
  };
}
