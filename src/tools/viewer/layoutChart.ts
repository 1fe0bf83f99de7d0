import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { MachineJson } from '../diagram/toMachineJson.js';
import type { ChartEdge, ChartLayout, ChartNode } from './ChartLayout.js';
import { labelSize as lineLabelSize } from './chartLabels.js';
import type { ChartPath } from './chartPath.js';
import { chartSkeleton } from './chartSkeleton.js';
import { elkGraphOf } from './elkGraph.js';
import { type PathHull, placeEdgeLabels } from './placeEdgeLabels.js';

// What the simple fallback layout draws with, the same as this one.
export { boxWidth, loopNodeOf, MAX_CHART_STATES, NODE_HEIGHT } from './chartSkeleton.js';

/** A one-line label's box, room for the count included. */
export const labelSize = (text: string) => lineLabelSize([text]);

type ElkLayout = (graph: ElkNode) => Promise<ElkNode>;
/**
 * Runs ELK elsewhere (`startViewer` uses a worker thread): ELK's graph in, the laid-out graph out.
 * Typed without elkjs's own types, so declarations that name it do not pull them in.
 */
export type RunElk = (graph: object) => Promise<object>;
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

/** Options of `layoutChart`. */
export interface LayoutOptions {
  /**
   * The path a run took (as `chartPathOf` gives it): its states are laid out together, compact,
   * so the path can be framed whole at a readable zoom. Default: none.
   */
  path?: ChartPath;
  /** Runs ELK itself (`startViewer` uses a worker thread). Default: ELK in this thread. */
  runElk?: RunElk;
}

/**
 * Lays a machine graph out with ELK's layered algorithm (top to bottom, orthogonal routes) and
 * returns absolute boxes and routes. The root is the canvas; machine-level transitions start from
 * an `any state` box; each compound state gets an initial dot. Given a run's `path`, the states it
 * went through are kept together and the rest placed around them.
 * @example const layout = await layoutChart(toMachineJson(machine));
 */
export function layoutChart(graph: MachineJson, options: LayoutOptions = {}): Promise<ChartLayout> {
  const path = options.path ?? { states: [], edges: [] };
  const key = `${JSON.stringify(graph)}\n${JSON.stringify(path)}`;
  let layout = layouts.get(key);
  if (!layout) {
    if (layouts.size >= MAX_CACHED_LAYOUTS) layouts.delete(layouts.keys().next().value as string);
    layout = computeLayout(graph, path, options.runElk);
    layouts.set(key, layout);
    layout.catch(() => layouts.delete(key));
  }
  return layout;
}

/** Layouts of the machines seen last (reports of one config, runs of one machine reuse them). */
const layouts = new Map<string, Promise<ChartLayout>>();
const MAX_CACHED_LAYOUTS = 32;

async function computeLayout(
  graph: MachineJson,
  path: ChartPath,
  runElk?: RunElk,
): Promise<ChartLayout> {
  const skeleton = chartSkeleton(graph);
  const laidOut = (await (runElk ?? (await elk()))(elkGraphOf(skeleton, path))) as ElkNode;
  const offsets = absoluteOffsets(laidOut);
  const nodes: ChartNode[] = [];
  for (const { parent: _parent, width: _w, height: _h, ...node } of skeleton.nodes) {
    const box = offsets.get(node.id);
    if (box) nodes.push({ ...node, ...box });
  }
  const routed = new Map((laidOut.edges ?? []).map((edge) => [edge.id, edge as ElkExtendedEdge]));
  const placed = skeleton.edges.map((edge) => routeOf(edge, routed.get(edge.id), offsets));
  // ELK's own label spots can sit nearer another edge; ours sit on the edge's own route.
  const labels = placeEdgeLabels(
    nodes,
    placed,
    (edge) => lineLabelSize(edge.labelLines ?? [edge.label]),
    pathHull(nodes, placed, path),
  );
  return {
    machineId: skeleton.machineId,
    width: Math.ceil(laidOut.width ?? 0),
    height: Math.ceil(laidOut.height ?? 0),
    nodes,
    edges: placed.map((edge) => {
      const labelBox = labels.get(edge.id);
      return labelBox ? { ...edge, labelBox } : edge;
    }),
    ...(skeleton.loopNode === undefined ? {} : { loopNode: skeleton.loopNode }),
  };
}

type Box = { x: number; y: number; width: number; height: number };

/** The box the path's states and taken routes span (none without a path). */
function pathHull(
  nodes: readonly ChartNode[],
  edges: readonly ChartEdge[],
  path: ChartPath,
): PathHull | undefined {
  const taken = new Set(path.edges);
  const states = new Set(path.states);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const node of nodes) {
    if (!states.has(node.id) || node.type === 'compound' || node.type === 'parallel') continue;
    xs.push(node.x, node.x + node.width);
    ys.push(node.y, node.y + node.height);
  }
  for (const edge of edges) {
    if (!taken.has(edge.id)) continue;
    for (const [x, y] of edge.points) {
      xs.push(x);
      ys.push(y);
    }
  }
  if (xs.length === 0) return undefined;
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return {
    edges: taken,
    box: { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y },
  };
}

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
  // ELK routed it from where it was laid out to start: a back-edge, or a path edge pointing up.
  const reversed =
    routed && edge.source !== edge.target ? routed.sources[0] !== edge.source : edge.backEdge;
  if (reversed) points.reverse();
  return { ...edge, points };
}

const round = (n: number) => Math.round(n * 10) / 10;
