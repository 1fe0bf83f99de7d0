import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { labelSize } from './chartLabels.js';
import type { ChartPath } from './chartPath.js';
import type { ChartSkeleton } from './chartSkeleton.js';

const LAYERED = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.layered.spacing.nodeNodeBetweenLayers': '46',
  'elk.spacing.nodeNode': '28',
  'elk.spacing.edgeLabel': '4',
};
const ROOT_OPTIONS = {
  ...LAYERED,
  // Only on the root: asked for inside a compound, ELK 0.12 fails ("Cannot read properties of
  // undefined (reading 'a')") once the compound has two children, as every pipeline layer has.
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.padding': '[top=16,left=16,bottom=16,right=16]',
};
const COMPOUND_OPTIONS = { ...LAYERED, 'elk.padding': '[top=34,left=14,bottom=14,right=14]' };
/** The invisible box that keeps a run's path together (see `elkGraphOf`), packed tighter. */
const PATH_OPTIONS = {
  ...LAYERED,
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
  'elk.spacing.nodeNode': '16',
  'elk.spacing.edgeNode': '8',
  'elk.spacing.edgeEdge': '6',
};
/**
 * An edge the run took: ELK keeps it straight, so the path reads as a column; a back-edge less
 * so (pulled as straight as a forward edge, its lane pushes the column aside).
 */
const PATH_EDGE_OPTIONS = { 'elk.layered.priority.straightness': '10' };
const PATH_BACK_EDGE_OPTIONS = { 'elk.layered.priority.straightness': '5' };
/** The column's unseen edges: kept straighter than any edge drawn, so the column stays straight. */
const COLUMN_OPTIONS = { 'elk.layered.priority.straightness': '200' };
/** Joins the ids of a column edge's ends: never in an edge id of the skeleton. */
const COLUMN_EDGE = '#then#';
/** The suffix of a path group's id: never a state id (state ids have no `#`). */
export const PATH_GROUP = '#path';

/**
 * The graph handed to ELK: the skeleton's boxes nested as the states are, every edge on the root
 * (ELK routes across levels), back-edges reversed so ELK layers the chart along the DFS order.
 * When a run's `path` is given, the states it went through are wrapped, in each parent, in an
 * invisible box laid out as one column in the order the run first reached them (an unseen edge
 * joins each to the next; an edge between two of them points down that order), with no room kept
 * for their labels (`placeEdgeLabels` sets those beside the routes): the path stays narrow enough
 * for a phone, and the rest of the chart goes around it.
 * @example const laidOut = await elk.layout(elkGraphOf(chartSkeleton(graph), new Set()));
 */
export function elkGraphOf(skeleton: ChartSkeleton, taken: ChartPath): ElkNode {
  const path = new Set(taken.states);
  const takenEdges = new Set(taken.edges);
  const reached = new Map(taken.states.map((id, i) => [id, i]));
  const order = (id: string) => reached.get(id) ?? -1;
  const root: ElkNode = { id: skeleton.rootId, children: [], layoutOptions: ROOT_OPTIONS };
  const byId = new Map<string, ElkNode>([[root.id, root]]);
  for (const node of skeleton.nodes) {
    byId.set(
      node.id,
      node.width === undefined
        ? { id: node.id, children: [], layoutOptions: COMPOUND_OPTIONS }
        : { id: node.id, width: node.width, height: node.height ?? 0 },
    );
  }
  for (const node of skeleton.nodes) {
    byId.get(node.parent)?.children?.push(byId.get(node.id) as ElkNode);
  }
  const column: ElkExtendedEdge[] = [];
  const parentOf = new Map(skeleton.nodes.map((node) => [node.id, node.parent]));
  if (path.size > 0) {
    const onPath = (id: string) =>
      path.has(id) || (id.endsWith('#initial') && path.has(id.slice(0, -'#initial'.length)));
    // The root's initial dot leads into the path: it belongs with it.
    const inGroup = (child: ElkNode) =>
      onPath(child.id) || child.id === `${skeleton.rootId}#initial`;
    const parallel = new Set(skeleton.nodes.filter((n) => n.type === 'parallel').map((n) => n.id));
    for (const parent of byId.values()) {
      const children = parent.children ?? [];
      const grouped = children.filter(inGroup);
      if (!parallel.has(parent.id)) column.push(...columnEdges(grouped, order));
      if (grouped.length === 0 || grouped.length === children.length) continue;
      parent.children = [
        { id: `${parent.id}${PATH_GROUP}`, children: grouped, layoutOptions: PATH_OPTIONS },
        ...children.filter((child) => !grouped.includes(child)),
      ];
    }
  }
  root.edges = skeleton.edges.map((edge): ElkExtendedEdge => {
    const onPath = path.has(edge.source) && path.has(edge.target);
    // Two states of the path side by side in one parent: laid out in the order the run reached them.
    const inColumn = onPath && parentOf.get(edge.source) === parentOf.get(edge.target);
    const up = inColumn ? order(edge.target) < order(edge.source) : edge.backEdge;
    const [from, to] = up ? [edge.target, edge.source] : [edge.source, edge.target];
    // ELK keeps room for the labels of the edges the path takes down its column only: the
    // others (back-edges, which run in lanes beside it, and edges faint until "every state") find
    // a free spot of their own, and the path stays narrow.
    const roomy = onPath ? takenEdges.has(edge.id) && !up : true;
    const labels =
      edge.label && roomy
        ? [{ text: edge.label, ...labelSize(edge.labelLines ?? [edge.label]) }]
        : [];
    return {
      id: edge.id,
      sources: [from],
      targets: [to],
      labels,
      ...(takenEdges.has(edge.id)
        ? { layoutOptions: up ? PATH_BACK_EDGE_OPTIONS : PATH_EDGE_OPTIONS }
        : {}),
    };
  });
  root.edges.push(...column);
  return root;
}

/**
 * Unseen edges that stack a path group's simple states in the order the run reached them
 * (`order`), each under the one before: ELK lays them out as one straight column. Compound states
 * (a pipeline's layers) follow their own edges.
 */
function columnEdges(
  grouped: readonly ElkNode[],
  order: (id: string) => number,
): ElkExtendedEdge[] {
  const states = grouped
    .filter((child) => order(child.id) >= 0 && child.children === undefined)
    .sort((a, b) => order(a.id) - order(b.id));
  return states.slice(1).map((child, i) => ({
    id: `${(states[i] as ElkNode).id}${COLUMN_EDGE}${child.id}`,
    sources: [(states[i] as ElkNode).id],
    targets: [child.id],
    layoutOptions: COLUMN_OPTIONS,
  }));
}
