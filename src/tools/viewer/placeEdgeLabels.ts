import type { ChartEdge, ChartNode } from './ChartLayout.js';

type Box = { x: number; y: number; width: number; height: number };
type Point = [number, number];
type Routed = Pick<ChartEdge, 'id' | 'label' | 'points'> & Partial<Pick<ChartEdge, 'labelLines'>>;

/** Where along a segment a label may sit, best first. */
const SPOTS = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];
/** Gap between a label set beside its segment and the segment. */
const BESIDE = 3;
/** What a flaw of a spot costs: any overlap outweighs any ambiguity, which outweighs any room. */
const COST = { overlap: 10_000, ambiguous: 1000, crossed: 100, outsidePerPx: 2 };

/** The run's path: its labels had better stay inside the box its states and routes span. */
export interface PathHull {
  edges: ReadonlySet<string>;
  box: Box;
}

/**
 * Places each edge's label on or beside a point of its own route, so the label is nearer its
 * edge than any other: for every labelled edge it tries spots along each segment (longest first),
 * centred on the segment and then beside it, and keeps the one that overlaps no state box and no
 * label placed before, does not sit on a stretch another edge shares (a shared stretch would read
 * as both edges' label), is crossed by the fewest other edges, and has the most room. The labels
 * of a run's path prefer spots inside the path's own box, so the path stays as narrow as it is
 * drawn. Returns the label boxes by edge id.
 * @example const boxes = placeEdgeLabels(layout.nodes, layout.edges, (edge) => ({ width: 80, height: 18 }));
 */
export function placeEdgeLabels(
  nodes: readonly ChartNode[],
  edges: readonly Routed[],
  size: (edge: Routed) => { width: number; height: number },
  path?: PathHull,
): Map<string, Box> {
  const obstacles = nodes
    .filter((node) => node.type !== 'compound' && node.type !== 'parallel')
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
  const placed = new Map<string, Box>();
  const routed = edges.filter((edge) => edge.points.length >= 2);
  // Long labels first: they have the fewest places to go.
  const order = routed.filter((edge) => edge.label).sort((a, b) => b.label.length - a.label.length);
  for (const edge of order) {
    const { width, height } = size(edge);
    const others = routed.filter((other) => other.id !== edge.id);
    const score = (box: Box, t: number) => {
      const centre: Point = [box.x + width / 2, box.y + height / 2];
      const own = distanceToRoute(centre, edge.points);
      const nearest = Math.min(
        Number.POSITIVE_INFINITY,
        ...others.map((other) => distanceToRoute(centre, other.points)),
      );
      const overlaps =
        obstacles.filter((node) => overlap(box, node, 2)).length +
        [...placed.values()].filter((label) => overlap(box, label, 2)).length;
      const crossed = others.filter((other) => crosses(other.points, box)).length;
      const outside = path?.edges.has(edge.id) ? outsideBy(box, path.box) : 0;
      return {
        overlaps,
        cost:
          overlaps * COST.overlap +
          outside * COST.outsidePerPx +
          (nearest <= own + 1 ? COST.ambiguous : 0) +
          crossed * COST.crossed -
          Math.min(height, nearest - own) * 10 +
          Math.abs(t - 0.5) +
          (own > 1 ? 5 : 0),
      };
    };
    // Spots on and beside the route first; only if each of them overlaps something, spots set
    // further along and further out (a short route, a self-loop beside its state, a crowd).
    let best: { box: Box; cost: number; overlaps: number } | undefined;
    for (const far of [false, true]) {
      for (const [a, b] of segmentsLongestFirst(edge.points)) {
        for (const t of SPOTS) {
          const x = a[0] + (b[0] - a[0]) * t;
          const y = a[1] + (b[1] - a[1]) * t;
          for (const box of spotsAround([x, y], a, b, width, height, far)) {
            const scored = score(box, t);
            if (!best || scored.cost < best.cost) best = { box, ...scored };
          }
        }
      }
      if (best && best.overlaps === 0) break;
    }
    if (best) placed.set(edge.id, roundBox(best.box));
  }
  return placed;
}

/**
 * A label box centred on the point, then beside the segment on either side; `far` gives the
 * boxes beside it shifted along the segment by one and two label lengths, and one label further out.
 */
function spotsAround(
  [x, y]: Point,
  a: Point,
  b: Point,
  width: number,
  height: number,
  far: boolean,
): Box[] {
  const centred = { x: x - width / 2, y: y - height / 2, width, height };
  const vertical = Math.abs(b[0] - a[0]) < Math.abs(b[1] - a[1]);
  const beside = vertical
    ? [x + BESIDE, x - BESIDE - width].map((left) => ({ ...centred, x: left }))
    : [y + BESIDE, y - BESIDE - height].map((top) => ({ ...centred, y: top }));
  if (!far) return [centred, ...beside];
  const along = [1, -1, 2, -2].map((k) => k * ((vertical ? height : width) + 4));
  const out = vertical ? width + 4 : height + 4;
  return beside.flatMap((box, side) => {
    const away = side === 0 ? out : -out;
    const further = vertical ? { ...box, x: box.x + away } : { ...box, y: box.y + away };
    return [
      further,
      ...along.map((d) => (vertical ? { ...box, y: box.y + d } : { ...box, x: box.x + d })),
    ];
  });
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

/** How far a box reaches out of another, summed over its four sides. */
function outsideBy(box: Box, hull: Box): number {
  return (
    Math.max(0, hull.x - box.x) +
    Math.max(0, hull.y - box.y) +
    Math.max(0, box.x + box.width - (hull.x + hull.width)) +
    Math.max(0, box.y + box.height - (hull.y + hull.height))
  );
}

/** Whether an orthogonal route runs through the box (its inside, not along its border). */
function crosses(points: readonly Point[], box: Box): boolean {
  for (let i = 1; i < points.length; i += 1) {
    const [ax, ay] = points[i - 1] as Point;
    const [bx, by] = points[i] as Point;
    const [x0, x1] = [Math.min(ax, bx), Math.max(ax, bx)];
    const [y0, y1] = [Math.min(ay, by), Math.max(ay, by)];
    if (x1 > box.x && x0 < box.x + box.width && y1 > box.y && y0 < box.y + box.height) return true;
  }
  return false;
}

function segmentsLongestFirst(points: readonly Point[]): Array<[Point, Point]> {
  const segments: Array<[Point, Point]> = [];
  for (let i = 1; i < points.length; i += 1) {
    segments.push([points[i - 1] as Point, points[i] as Point]);
  }
  const length = ([a, b]: [Point, Point]) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  return segments.sort((s, t) => length(t) - length(s));
}

function overlap(a: Box, b: Box, margin: number): boolean {
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
