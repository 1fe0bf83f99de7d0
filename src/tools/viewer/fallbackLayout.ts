import { edgeLabel } from '../diagram/edgeLabel.js';
import type { MachineJson } from '../diagram/toMachineJson.js';
import { ANY_STATE_LABEL } from '../diagram/toMermaid.js';
import type { ChartEdge, ChartLayout, ChartNode } from './ChartLayout.js';
import { boxWidth, labelSize, loopNodeOf, NODE_HEIGHT } from './layoutChart.js';

type Info = Omit<ChartNode, 'x' | 'y' | 'width' | 'height'>;
type Point = [number, number];
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const GAP = { x: 28, y: 46 };
const PER_ROW = 8;
const PAD = { top: 34, side: 14, bottom: 14, root: 16 };
const DOT = 14;

/**
 * The chart drawn simply, in time linear in its states and transitions, for a machine past the
 * viewer's layout budget (or one ELK failed on): inside each compound state, its children in rows
 * by their distance from its initial state (eight to a row), the compound's box around them;
 * straight edges between box borders, each label at its edge's middle. `simplified` says why.
 * @example const chart = fallbackLayout(graphFromDefinition(definition), 'over 400 states');
 */
export function fallbackLayout(graph: MachineJson, reason: string): ChartLayout {
  const root = graph.nodes.find((node) => node.parent === undefined);
  if (!root) throw new Error('the machine graph has no root state');
  const info = new Map<string, Info>();
  const children = new Map<string, string[]>();
  const parentOf = new Map<string, string>();
  const add = (parent: string, node: Info) => {
    info.set(node.id, node);
    parentOf.set(node.id, parent);
    children.get(parent)?.push(node.id) ?? children.set(parent, [node.id]);
  };
  info.set(root.id, {
    id: root.id,
    key: root.key,
    path: root.path,
    type: root.type,
    waitsForHuman: false,
  });
  for (const node of graph.nodes) {
    if (node.initial) {
      const dot = `${node.id}#initial`;
      add(node.id, {
        id: dot,
        key: '',
        path: [...node.path, '#initial'],
        type: 'initial',
        waitsForHuman: false,
      });
    }
  }
  const any = `${root.id}#any`;
  if (graph.edges.some((edge) => edge.source === root.id)) {
    add(root.id, {
      id: any,
      key: ANY_STATE_LABEL,
      path: ['#any'],
      type: 'any',
      waitsForHuman: false,
    });
  }
  for (const { id, key, path, type, waitsForHuman, parent } of graph.nodes) {
    if (parent !== undefined) add(parent, { id, key, path, type, waitsForHuman });
  }

  const edges: Omit<ChartEdge, 'points'>[] = graph.nodes
    .filter((node) => node.initial)
    .map((node) => ({
      id: `${node.id}#initial:edge`,
      source: `${node.id}#initial`,
      target: node.initial as string,
      kind: 'initial' as const,
      label: '',
      backEdge: false,
    }));
  for (const edge of graph.edges) {
    const source = edge.source === root.id ? any : edge.source;
    if (edge.target === root.id) continue;
    edges.push({
      id: edge.id,
      source,
      target: edge.target,
      kind: edge.kind,
      label: edgeLabel(edge),
      backEdge: edge.backEdge,
    });
  }

  const order = parentsFirst(root.id, children);
  const ranks = rankSiblings(edges, parentOf, info);
  const sizes = new Map<string, Box>();
  const offsets = new Map<string, Point>();
  for (const id of [...order].reverse()) {
    const node = info.get(id) as Info;
    const inside = children.get(id);
    if (!inside) {
      const width = node.type === 'initial' ? DOT : boxWidth(node.key);
      sizes.set(id, { x: 0, y: 0, width, height: node.type === 'initial' ? DOT : NODE_HEIGHT });
      continue;
    }
    const pad = id === root.id ? { top: PAD.root, side: PAD.root, bottom: PAD.root } : PAD;
    const rows = rowsOf(inside, ranks);
    const widths = rows.map(
      (row) =>
        row.reduce((sum, child) => sum + sizeOf(sizes, child).width, 0) + GAP.x * (row.length - 1),
    );
    const inner = Math.max(0, ...widths);
    let y = pad.top;
    rows.forEach((row, r) => {
      let x = pad.side + (inner - (widths[r] ?? 0)) / 2;
      const height = Math.max(...row.map((child) => sizeOf(sizes, child).height));
      for (const child of row) {
        const box = sizeOf(sizes, child);
        offsets.set(child, [x, y + (height - box.height) / 2]);
        x += box.width + GAP.x;
      }
      y += height + GAP.y;
    });
    sizes.set(id, { x: 0, y: 0, width: inner + 2 * pad.side, height: y - GAP.y + pad.bottom });
  }

  const boxes = new Map<string, Box>();
  for (const id of order) {
    const parent = boxes.get(parentOf.get(id) ?? '');
    const [dx, dy] = offsets.get(id) ?? [0, 0];
    boxes.set(id, {
      ...sizeOf(sizes, id),
      x: round((parent?.x ?? 0) + dx),
      y: round((parent?.y ?? 0) + dy),
    });
  }
  // a state whose parent is missing from the graph is not reached from the root: not drawn
  const nodes: ChartNode[] = order
    .slice(1)
    .map((id) => ({ ...(info.get(id) as Info), ...(boxes.get(id) as Box) }));
  const whole = boxes.get(root.id) as Box;
  return {
    machineId: graph.id,
    width: Math.ceil(whole.width),
    height: Math.ceil(whole.height),
    nodes,
    edges: edges.flatMap((edge) => {
      const [from, to] = [boxes.get(edge.source), boxes.get(edge.target)];
      return from && to ? [routed(edge, from, to)] : [];
    }),
    ...loopNodeOf(graph.nodes),
    simplified: reason,
  };
}

/** Node ids from the root down, each after its parent (iterative: the depth is untrusted). */
function parentsFirst(rootId: string, children: Map<string, string[]>): string[] {
  const order = [rootId];
  for (let i = 0; i < order.length; i += 1) order.push(...(children.get(order[i] as string) ?? []));
  return order;
}

/**
 * Each node's row among its siblings: its distance from the initial dot along transitions between
 * siblings (a transition between nested states counts for the siblings that contain them).
 */
function rankSiblings(
  edges: readonly Omit<ChartEdge, 'points'>[],
  parentOf: Map<string, string>,
  info: Map<string, Info>,
): Map<string, number> {
  const next = new Map<string, string[]>();
  const lineage = (id: string) => {
    const line = [id];
    for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) line.push(at);
    return line.reverse();
  };
  for (const edge of edges) {
    const [a, b] = [lineage(edge.source), lineage(edge.target)];
    let i = 0;
    while (a[i] !== undefined && a[i] === b[i]) i += 1;
    const [from, to] = [a[i], b[i]];
    if (from !== undefined && to !== undefined) next.get(from)?.push(to) ?? next.set(from, [to]);
  }
  const ranks = new Map<string, number>();
  const queue = [...info.values()]
    .filter((node) => node.type === 'initial' || node.type === 'any')
    .map((node) => node.id);
  for (const id of queue) ranks.set(id, 0);
  for (let i = 0; i < queue.length; i += 1) {
    const id = queue[i] as string;
    for (const target of next.get(id) ?? []) {
      if (ranks.has(target)) continue;
      ranks.set(target, (ranks.get(id) ?? 0) + 1);
      queue.push(target);
    }
  }
  return ranks;
}

/** Siblings grouped by rank (the unreached last), each group wrapped at `PER_ROW`. */
function rowsOf(siblings: readonly string[], ranks: Map<string, number>): string[][] {
  const last = Math.max(0, ...siblings.map((id) => ranks.get(id) ?? 0)) + 1;
  const groups = new Map<number, string[]>();
  for (const id of siblings) {
    const rank = ranks.get(id) ?? last;
    groups.get(rank)?.push(id) ?? groups.set(rank, [id]);
  }
  const rows: string[][] = [];
  for (const rank of [...groups.keys()].sort((x, y) => x - y)) {
    const group = groups.get(rank) as string[];
    for (let i = 0; i < group.length; i += PER_ROW) rows.push(group.slice(i, i + PER_ROW));
  }
  return rows;
}

/** A straight route between the two boxes' borders (a loop on the right for a self-transition). */
function routed(edge: Omit<ChartEdge, 'points'>, from: Box, to: Box): ChartEdge {
  const points: Point[] =
    from === to
      ? [
          [from.x + from.width, from.y + from.height * 0.3],
          [from.x + from.width + 18, from.y + from.height * 0.3],
          [from.x + from.width + 18, from.y + from.height * 0.7],
          [from.x + from.width, from.y + from.height * 0.7],
        ]
      : [border(from, centre(to)), border(to, centre(from))];
  const rounded = points.map(([x, y]): Point => [round(x), round(y)]);
  if (!edge.label) return { ...edge, points: rounded };
  const [a, b] = from === to ? [rounded[1], rounded[2]] : [rounded[0], rounded[1]];
  const size = labelSize(edge.label);
  const [mx, my] = [((a?.[0] ?? 0) + (b?.[0] ?? 0)) / 2, ((a?.[1] ?? 0) + (b?.[1] ?? 0)) / 2];
  const labelBox = { x: round(mx - size.width / 2), y: round(my - size.height / 2), ...size };
  return { ...edge, points: rounded, labelBox };
}

const centre = (box: Box): Point => [box.x + box.width / 2, box.y + box.height / 2];

/** Where the line from the box's centre towards `towards` leaves the box. */
function border(box: Box, towards: Point): Point {
  const [cx, cy] = centre(box);
  const [dx, dy] = [towards[0] - cx, towards[1] - cy];
  if (dx === 0 && dy === 0) return [cx, cy];
  const scale = Math.min(
    dx === 0 ? Number.POSITIVE_INFINITY : box.width / 2 / Math.abs(dx),
    dy === 0 ? Number.POSITIVE_INFINITY : box.height / 2 / Math.abs(dy),
  );
  return [cx + dx * Math.min(1, scale), cy + dy * Math.min(1, scale)];
}

const sizeOf = (sizes: Map<string, Box>, id: string): Box =>
  sizes.get(id) ?? { x: 0, y: 0, width: 0, height: 0 };
const round = (n: number) => Math.round(n * 10) / 10;
