// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartEdge, ChartNode } from '../ChartLayout.js';
import type { RunView } from '../runView.js';

/** What reading a path needs of a chart: its states and edges, laid out or not. */
export interface PathChart {
  machineId: string;
  nodes: ReadonlyArray<Pick<ChartNode, 'id' | 'path' | 'type'>>;
  edges: ReadonlyArray<Pick<ChartEdge, 'id' | 'source' | 'target' | 'kind'>>;
}

/** What a run went through on its chart: states by id, edges by id with how often each was taken. */
export interface TakenPath {
  visited: Set<string>;
  current: Set<string>;
  taken: Map<string, number>;
}

/**
 * The path a run took on its chart. The states come from the run's `steps` (every change of the
 * root's state, as the viewer saw it) or else from its trace and final state; between two states
 * that no single transition joins, the shortest route through the chart (at most 4 transitions,
 * e.g. through the eventless `routing`) is what was taken.
 */
export function takenPath(
  layout: PathChart,
  run: Pick<RunView, 'value' | 'steps' | 'trace'> | undefined,
): TakenPath {
  const byPath = new Map(layout.nodes.map((node) => [node.path.join('.'), node]));
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  const leavesOf = (value: unknown, prefix: string, depth: number): string[] => {
    if (typeof value === 'string') return [prefix + value];
    if (typeof value !== 'object' || value === null || depth > 16) return [];
    return Object.entries(value).flatMap(([key, inner]) => {
      const below = leavesOf(inner, `${prefix}${key}.`, depth + 1);
      return below.length > 0 ? below : [prefix + key];
    });
  };
  const current = new Set<string>();
  for (const leaf of leavesOf(run?.value, '', 0)) {
    const parts = leaf.split('.');
    for (let i = 1; i <= parts.length; i += 1) {
      const node = byPath.get(parts.slice(0, i).join('.'));
      if (node) current.add(node.id);
    }
  }

  let steps: string[][] = run?.steps?.length ? run.steps : [];
  if (steps.length === 0) {
    for (const entry of run?.trace ?? []) {
      const state = (entry as { state?: unknown } | null)?.state;
      if (typeof state === 'string' && steps.at(-1)?.[0] !== state) steps.push([state]);
    }
    const final = leavesOf(run?.value, '', 0);
    if (final.length > 0 && steps.at(-1)?.join() !== final.join()) steps.push(final);
  }
  steps = steps.map((leaves) => leaves.filter((leaf) => byPath.has(leaf)));

  const outgoing = new Map<string, Array<PathChart['edges'][number]>>();
  for (const edge of layout.edges) {
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
  }
  const ancestors = (id: string) => {
    const node = byId.get(id);
    if (!node) return [id];
    return node.path.map((_, i) => byPath.get(node.path.slice(0, i + 1).join('.'))?.id ?? id);
  };
  const anyState = layout.nodes.find((node) => node.type === 'any')?.id;
  const visited = new Set<string>();
  const taken = new Map<string, number>();
  const take = (edgeId: string) => taken.set(edgeId, (taken.get(edgeId) ?? 0) + 1);
  const visit = (id: string) => {
    for (const above of ancestors(id)) visited.add(above);
  };
  /** Breadth-first from `from` (or any of its ancestors, or the `any state` box) to `to`. */
  const route = (from: string, to: string): string[] | undefined => {
    const seen = new Set([from]);
    let frontier: Array<{ at: string; edges: string[] }> = [{ at: from, edges: [] }];
    for (let hops = 0; hops < 4 && frontier.length > 0; hops += 1) {
      const next: typeof frontier = [];
      for (const { at, edges } of frontier) {
        const sources = [...ancestors(at).reverse(), ...(anyState ? [anyState] : [])];
        for (const edge of sources.flatMap((source) => outgoing.get(source) ?? [])) {
          if (!enabledFrom(edge, at)) continue;
          const path = [...edges, edge.id];
          if (edge.target === to) return path;
          const entry = (outgoing.get(`${edge.target}#initial`) ?? [])[0];
          if (entry?.target === to) return [...path, entry.id];
          if (!seen.has(edge.target)) {
            seen.add(edge.target);
            next.push({ at: edge.target, edges: path });
          }
        }
      }
      frontier = next;
    }
    return undefined;
  };

  /**
   * A compound state's `done` edge is taken once its final child is reached, never straight from
   * another child: a pipeline layer goes running → settling → done, then on to the next layer.
   */
  const enabledFrom = (edge: PathChart['edges'][number], at: string) => {
    const source = byId.get(edge.source);
    if (edge.kind !== 'done' || edge.source === at) return true;
    if (source?.type !== 'compound' && source?.type !== 'parallel') return true;
    const here = byId.get(at);
    return here?.type === 'final' && here.path.length === source.path.length + 1;
  };

  const first = steps[0]?.[0];
  const rootEntry = layout.edges.find((edge) => edge.source === `${layout.machineId}#initial`);
  if (first && rootEntry) take(rootEntry.id);
  let previous: string[] = [];
  for (const leaves of steps) {
    for (const leaf of leaves) {
      const id = byPath.get(leaf)?.id;
      if (!id) continue;
      // The states passed on the way (an eventless `routing`) are reached before the leaf.
      const from = previous.includes(leaf)
        ? undefined
        : previous.map((p) => byPath.get(p)?.id).find((p) => p && route(p, id));
      for (const edgeId of (from && route(from, id)) || []) {
        take(edgeId);
        const edge = layout.edges.find((e) => e.id === edgeId);
        if (edge) visit(edge.target);
      }
      visit(id);
    }
    previous = leaves;
  }
  for (const id of current) visited.add(id);
  return { visited, current, taken };
}
