import type { GraphNode } from '../analysis/machineGraph.js';
import type { MachineJson } from '../diagram/toMachineJson.js';
import { ANY_STATE_LABEL } from '../diagram/toMermaid.js';
import type { ChartEdge, ChartNode } from './ChartLayout.js';
import { chartEdgeLabel, labelLines } from './chartLabels.js';

/** A state box before layout: its parent, and its size if it is not a compound. */
export interface SkeletonNode extends Omit<ChartNode, 'x' | 'y' | 'width' | 'height'> {
  parent: string;
  width?: number;
  height?: number;
}

export type SkeletonEdge = Omit<ChartEdge, 'points' | 'labelBox'>;

/** What is drawn, before ELK places it: the boxes (pseudo states included) and the edges. */
export interface ChartSkeleton {
  machineId: string;
  /** The root state's id: the canvas. */
  rootId: string;
  nodes: SkeletonNode[];
  edges: SkeletonEdge[];
  loopNode?: string;
}

/** States beyond this are not drawn (the layout would take too long to be useful). */
export const MAX_CHART_STATES = 400;
/** Widths of one monospace character at the page's sizes (13 px states, 12 px edge labels). */
export const CHAR = { node: 7.9, label: 7.3 };
export const NODE_HEIGHT = 36;
export const boxWidth = (text: string) => Math.max(72, Math.ceil(text.length * CHAR.node) + 28);

/**
 * The boxes and edges of a machine graph as the viewer draws them: each compound state gets an
 * initial dot, machine-level transitions start from an `any state` box, every edge has its label.
 * @example chartSkeleton(toMachineJson(machine)).edges.map((edge) => edge.label)
 */
export function chartSkeleton(graph: MachineJson): ChartSkeleton {
  const root = graph.nodes.find((node) => node.parent === undefined);
  if (!root) throw new Error('the machine graph has no root state');
  if (graph.nodes.length > MAX_CHART_STATES) {
    throw new Error(
      `the machine has ${graph.nodes.length} states; the viewer draws at most ${MAX_CHART_STATES}`,
    );
  }
  const nodes: SkeletonNode[] = [];
  const edges: SkeletonEdge[] = [];
  for (const node of graph.nodes) {
    if (node.parent === undefined) continue;
    const compound = node.type === 'compound' || node.type === 'parallel';
    nodes.push({
      ...toChartNode(node, node.parent),
      ...(compound ? {} : { width: boxWidth(node.key), height: NODE_HEIGHT }),
    });
  }
  for (const node of graph.nodes) {
    if (!node.initial) continue;
    const dot = `${node.id}#initial`;
    nodes.push({
      id: dot,
      parent: node.id,
      key: '',
      path: [...node.path, '#initial'],
      type: 'initial',
      waitsForHuman: false,
      width: 14,
      height: 14,
    });
    edges.push({
      id: `${dot}:edge`,
      source: dot,
      target: node.initial,
      kind: 'initial',
      label: '',
      backEdge: false,
    });
  }
  const any = `${root.id}#any`;
  if (graph.edges.some((edge) => edge.source === root.id)) {
    nodes.push({
      id: any,
      parent: root.id,
      key: ANY_STATE_LABEL,
      path: ['#any'],
      type: 'any',
      waitsForHuman: false,
      width: boxWidth(ANY_STATE_LABEL),
      height: NODE_HEIGHT,
    });
  }
  for (const edge of graph.edges) {
    if (edge.target === root.id) continue; // the canvas itself cannot be an edge's end
    const label = chartEdgeLabel(edge, graph.edges);
    const lines = labelLines(label);
    edges.push({
      id: edge.id,
      source: edge.source === root.id ? any : edge.source,
      target: edge.target,
      kind: edge.kind,
      label,
      ...(lines.length > 1 ? { labelLines: lines } : {}),
      backEdge: edge.backEdge,
    });
  }
  return { machineId: graph.id, rootId: root.id, nodes, edges, ...loopNodeOf(graph.nodes) };
}

function toChartNode(node: GraphNode, parent: string): SkeletonNode {
  return {
    id: node.id,
    parent,
    key: node.key,
    path: node.path,
    type: node.type,
    waitsForHuman: node.waitsForHuman,
  };
}

export function loopNodeOf(nodes: readonly GraphNode[]): { loopNode?: string } {
  const node =
    nodes.find((n) => n.invokes.includes('refine')) ?? nodes.find((n) => n.key === 'refining');
  return node ? { loopNode: node.id } : {};
}
