import type { ChartEdge, ChartNode } from './ChartLayout.js';

type Box = { x: number; y: number; width: number; height: number };
type Point = [number, number];

/** Where along a segment a label may sit, best first. */
const SPOTS = [0.5, 0.35, 0.65, 0.2, 0.8];

/**
 * Places each edge's label centred on a point of its own route, so the label is nearer its edge
 * than any other: for every labelled edge it tries spots along each segment (longest first) and
 * keeps the one that overlaps no state box and no label placed before, with the most room to the
 * other edges. Returns the label boxes by edge id.
 * @example const boxes = placeEdgeLabels(layout.nodes, layout.edges, (label) => ({ width: 80, height: 15 }));
 */
export function placeEdgeLabels(
  nodes: readonly ChartNode[],
  edges: readonly Pick<ChartEdge, 'id' | 'label' | 'points'>[],
  size: (label: string) => { width: number; height: number },
): Map<string, Box> {
  const obstacles = nodes
    .filter((node) => node.type !== 'compound' && node.type !== 'parallel')
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
  const placed = new Map<string, Box>();
  const routed = edges.filter((edge) => edge.points.length >= 2);
  // Long labels first: they have the fewest places to go.
  const order = routed.filter((edge) => edge.label).sort((a, b) => b.label.length - a.label.length);
  for (const edge of order) {
    const { width, height } = size(edge.label);
    const others = routed.filter((other) => other.id !== edge.id);
    let best: { box: Box; score: number } | undefined;
    for (const [a, b] of segmentsLongestFirst(edge.points)) {
      for (const t of SPOTS) {
        const cx = a[0] + (b[0] - a[0]) * t;
        const cy = a[1] + (b[1] - a[1]) * t;
        const box = { x: cx - width / 2, y: cy - height / 2, width, height };
        const clearance = Math.min(
          height,
          ...others.map((other) => distanceToRoute([cx, cy], other.points)),
        );
        const collisions =
          obstacles.filter((node) => overlaps(box, node, 2)).length +
          [...placed.values()].filter((label) => overlaps(box, label, 2)).length;
        // A collision costs more than any amount of room; room to other edges decides the rest.
        const score = collisions * 1000 - clearance * 10 + Math.abs(t - 0.5);
        if (!best || score < best.score) best = { box, score };
      }
    }
    if (best) placed.set(edge.id, roundBox(best.box));
  }
  return placed;
}

/** The shortest distance from a point to a polyline. */
export function distanceToRoute([px, py]: Point, points: readonly Point[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < points.length; i += 1) {
    const [ax, ay] = points[i - 1] as Point;
    const [bx, by] = points[i] as Point;
    const dx = bx - ax;
    const dy = by - ay;
    const length = dx * dx + dy * dy;
    const t =
      length === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length));
    best = Math.min(best, Math.hypot(ax + t * dx - px, ay + t * dy - py));
  }
  return best;
}

function segmentsLongestFirst(points: readonly Point[]): Array<[Point, Point]> {
  const segments: Array<[Point, Point]> = [];
  for (let i = 1; i < points.length; i += 1) {
    segments.push([points[i - 1] as Point, points[i] as Point]);
  }
  const length = ([a, b]: [Point, Point]) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  return segments.sort((s, t) => length(t) - length(s));
}

function overlaps(a: Box, b: Box, margin: number): boolean {
  return (
    a.x < b.x + b.width + margin &&
    b.x < a.x + a.width + margin &&
    a.y < b.y + b.height + margin &&
    b.y < a.y + a.height + margin
  );
}

const roundBox = (box: Box): Box => ({
  x: Math.round(box.x * 10) / 10,
  y: Math.round(box.y * 10) / 10,
  width: box.width,
  height: box.height,
});
