import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { GraphNode } from '../analysis/machineGraph.js';
import { edgeLabel } from '../diagram/edgeLabel.js';
import type { MachineJson } from '../diagram/toMachineJson.js';
import { ANY_STATE_LABEL } from '../diagram/toMermaid.js';
import type { ChartEdge, ChartLayout, ChartNode } from './ChartLayout.js';
import { placeEdgeLabels } from './placeEdgeLabels.js';

/** States beyond this are not drawn (the layout would take too long to be useful). */
export const MAX_CHART_STATES = 400;
/** Widths of one monospace character at the page's sizes (13 px states, 12 px edge labels). */
const CHAR = { node: 7.9, label: 7.3 };
const NODE_HEIGHT = 36;
const LABEL_HEIGHT = 17;
const labelSize = (text: string) => ({
  width: Math.ceil(text.length * CHAR.label) + 8,
  height: LABEL_HEIGHT,
});
const COMPOUND_PADDING = '[top=34,left=14,bottom=14,right=14]';

type ElkLayout = (graph: ElkNode) => Promise<ElkNode>;
let elkLayout: Promise<ElkLayout> | undefined;

/** ELK's bundled build, loaded on first use (1.6 MB): it runs in-process, no worker. */
function elk(): Promise<ElkLayout> {
  elkLayout ??= import('elkjs/lib/elk.bundled.js').then(
    (module) => {
      const ELK = module.default as unknown as new () => { layout: ElkLayout };
      const instance = new ELK();
      return (graph) => instance.layout(graph);
    },
    (error: unknown) => {
      if ((error as { code?: unknown } | null)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new Error(
        'the viewer lays charts out with elkjs, an optional peer dependency: npm install elkjs@0.12',
      );
    },
  );
  return elkLayout;
}

/**
 * Loads ELK and lays `graph` out once, so the first real chart waits neither for ELK's 1.6 MB nor
 * for its code to warm up (a chart of the same machine is then a cache hit). `startViewer` calls it
 * with the default loop when it starts. Never rejects.
 * @example void warmUpLayout(toMachineJson(createLoopMachine(steps)));
 */
export async function warmUpLayout(graph: MachineJson): Promise<void> {
  try {
    await layoutChart(graph);
  } catch {
    // A broken ELK shows up as the chart error of the first run instead.
  }
}

/**
 * Lays a machine graph out with ELK's layered algorithm (top to bottom, orthogonal routes) and
 * returns absolute boxes and routes. The root is the canvas; machine-level transitions start from
 * an `any state` box; each compound state gets an initial dot.
 * @example const layout = await layoutChart(toMachineJson(machine));
 */
export function layoutChart(graph: MachineJson): Promise<ChartLayout> {
  const key = JSON.stringify(graph);
  let layout = layouts.get(key);
  if (!layout) {
    if (layouts.size >= MAX_CACHED_LAYOUTS) layouts.delete(layouts.keys().next().value as string);
    layout = computeLayout(graph);
    layouts.set(key, layout);
    layout.catch(() => layouts.delete(key));
  }
  return layout;
}

/** Layouts of the machines seen last (reports of one config, runs of one machine reuse them). */
const layouts = new Map<string, Promise<ChartLayout>>();
const MAX_CACHED_LAYOUTS = 32;

async function computeLayout(graph: MachineJson): Promise<ChartLayout> {
  const root = graph.nodes.find((node) => node.parent === undefined);
  if (!root) throw new Error('the machine graph has no root state');
  if (graph.nodes.length > MAX_CHART_STATES) {
    throw new Error(
      `the machine has ${graph.nodes.length} states; the viewer draws at most ${MAX_CHART_STATES}`,
    );
  }
  const info = new Map<string, Omit<ChartNode, 'x' | 'y' | 'width' | 'height'>>();
  const edges: Array<Omit<ChartEdge, 'points'> & { elk: ElkExtendedEdge }> = [];
  const elkNodes = new Map<string, ElkNode>();
  const rootElk: ElkNode = { id: root.id, children: [], layoutOptions: rootOptions };
  elkNodes.set(root.id, rootElk);

  const addNode = (
    parentId: string,
    node: Omit<ChartNode, 'x' | 'y' | 'width' | 'height'>,
    elkNode: ElkNode,
  ) => {
    info.set(node.id, node);
    elkNodes.set(node.id, elkNode);
    elkNodes.get(parentId)?.children?.push(elkNode);
  };
  const addEdge = (edge: Omit<ChartEdge, 'points' | 'labelBox'>) => {
    const labels = edge.label ? [{ text: edge.label, ...labelSize(edge.label) }] : [];
    // Back-edges go in reversed, so ELK layers the chart along our DFS order (initial state first).
    const [from, to] = edge.backEdge ? [edge.target, edge.source] : [edge.source, edge.target];
    edges.push({ ...edge, elk: { id: edge.id, sources: [from], targets: [to], labels } });
  };

  for (const node of graph.nodes) {
    if (node.parent === undefined) continue;
    const compound = node.type === 'compound' || node.type === 'parallel';
    addNode(node.parent, toChartNode(node), {
      id: node.id,
      ...(compound
        ? { children: [], layoutOptions: { ...rootOptions, 'elk.padding': COMPOUND_PADDING } }
        : { width: boxWidth(node.key), height: NODE_HEIGHT }),
    });
  }
  for (const node of graph.nodes) {
    if (!node.initial) continue;
    const dot = `${node.id}#initial`;
    addNode(
      node.id,
      { id: dot, key: '', path: [...node.path, '#initial'], type: 'initial', waitsForHuman: false },
      { id: dot, width: 14, height: 14 },
    );
    addEdge({
      id: `${dot}:edge`,
      source: dot,
      target: node.initial,
      kind: 'initial',
      label: '',
      backEdge: false,
    });
  }
  const rootEdges = graph.edges.filter((edge) => edge.source === root.id);
  if (rootEdges.length > 0) {
    const any = `${root.id}#any`;
    addNode(
      root.id,
      { id: any, key: ANY_STATE_LABEL, path: ['#any'], type: 'any', waitsForHuman: false },
      { id: any, width: boxWidth(ANY_STATE_LABEL), height: NODE_HEIGHT },
    );
  }
  for (const edge of graph.edges) {
    if (edge.target === root.id) continue; // the canvas itself cannot be an edge's end
    addEdge({
      id: edge.id,
      source: edge.source === root.id ? `${root.id}#any` : edge.source,
      target: edge.target,
      kind: edge.kind,
      label: edgeLabel(edge),
      backEdge: edge.backEdge,
    });
  }
  rootElk.edges = edges.map((edge) => edge.elk);

  const laidOut = await (await elk())(rootElk);
  const offsets = absoluteOffsets(laidOut);
  const nodes: ChartNode[] = [];
  for (const [id, node] of info) {
    const box = offsets.get(id);
    if (box) nodes.push({ ...node, ...box });
  }
  const routed = new Map((laidOut.edges ?? []).map((edge) => [edge.id, edge as ElkExtendedEdge]));
  const placed = edges.map(({ elk: _elk, ...edge }) => routeOf(edge, routed.get(edge.id), offsets));
  // ELK's own label spots can sit nearer another edge; ours sit on the edge's own route.
  const labels = placeEdgeLabels(nodes, placed, labelSize);
  return {
    machineId: graph.id,
    width: Math.ceil(laidOut.width ?? 0),
    height: Math.ceil(laidOut.height ?? 0),
    nodes,
    edges: placed.map((edge) => {
      const labelBox = labels.get(edge.id);
      return labelBox ? { ...edge, labelBox } : edge;
    }),
    ...loopNodeOf(graph.nodes),
  };
}

const rootOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.layered.spacing.nodeNodeBetweenLayers': '46',
  'elk.spacing.nodeNode': '28',
  'elk.spacing.edgeLabel': '4',
  'elk.padding': '[top=16,left=16,bottom=16,right=16]',
};

const boxWidth = (text: string) => Math.max(72, Math.ceil(text.length * CHAR.node) + 28);

function toChartNode(node: GraphNode): Omit<ChartNode, 'x' | 'y' | 'width' | 'height'> {
  return {
    id: node.id,
    key: node.key,
    path: node.path,
    type: node.type,
    waitsForHuman: node.waitsForHuman,
  };
}

function loopNodeOf(nodes: readonly GraphNode[]): { loopNode?: string } {
  const node =
    nodes.find((n) => n.invokes.includes('refine')) ?? nodes.find((n) => n.key === 'refining');
  return node ? { loopNode: node.id } : {};
}

type Box = { x: number; y: number; width: number; height: number };

/** ELK gives child positions relative to their parent; this sums them up. */
function absoluteOffsets(root: ElkNode): Map<string, Box> {
  const boxes = new Map<string, Box>();
  const visit = (node: ElkNode, dx: number, dy: number) => {
    const x = dx + (node.x ?? 0);
    const y = dy + (node.y ?? 0);
    boxes.set(node.id, {
      x: round(x),
      y: round(y),
      width: round(node.width ?? 0),
      height: round(node.height ?? 0),
    });
    for (const child of node.children ?? []) visit(child, x, y);
  };
  visit(root, 0, 0);
  return boxes;
}

function routeOf(
  edge: Omit<ChartEdge, 'points' | 'labelBox'>,
  routed: ElkExtendedEdge | undefined,
  offsets: Map<string, Box>,
): ChartEdge {
  const origin = offsets.get(routed?.container ?? '') ?? { x: 0, y: 0 };
  const points: Array<[number, number]> = [];
  for (const section of routed?.sections ?? []) {
    for (const point of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]) {
      points.push([round(origin.x + point.x), round(origin.y + point.y)]);
    }
  }
  if (edge.backEdge) points.reverse();
  return { ...edge, points };
}

const round = (n: number) => Math.round(n * 10) / 10;
