import type { GraphEdge, MachineGraph } from '../analysis/machineGraph.js';

/**
 * The ids of the edges that close a cycle. A depth-first walk starts at the machine's root, enters
 * each compound state through its initial child and then follows the state's transitions in
 * declaration order (the order XState tries them); an edge whose target is still on the walk's path
 * is a back-edge. Self-transitions are back-edges. States the walk cannot reach are walked
 * afterwards, in document order. Drop every back-edge and the chart is acyclic.
 * @example findBackEdges(machineGraph(createLoopMachine(config))).has('loop.refining:xstate.done.actor.refine:0')
 */
export function findBackEdges(graph: Pick<MachineGraph, 'nodes' | 'edges'>): Set<string> {
  const outgoing = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
  }
  const initialOf = new Map(graph.nodes.map((node) => [node.id, node.initial]));
  const onPath = new Set<string>();
  const done = new Set<string>();
  const back = new Set<string>();

  const walk = (id: string) => {
    onPath.add(id);
    const initial = initialOf.get(id);
    if (initial !== undefined && !onPath.has(initial) && !done.has(initial)) walk(initial);
    for (const edge of outgoing.get(id) ?? []) {
      if (onPath.has(edge.target)) back.add(edge.id);
      else if (!done.has(edge.target)) walk(edge.target);
    }
    onPath.delete(id);
    done.add(id);
  };
  for (const node of graph.nodes) if (!done.has(node.id)) walk(node.id);
  return back;
}
