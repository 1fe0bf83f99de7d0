import type { GraphEdgeKind, GraphNodeType } from '../analysis/machineGraph.js';
import type { CycleVerdict } from './cycleVerdicts.js';

/** A state box, or a pseudo state: the initial dot or the `any state` box of machine-level events. */
export interface ChartNode {
  id: string;
  key: string;
  path: string[];
  type: GraphNodeType | 'initial' | 'any';
  waitsForHuman: boolean;
  /** Absolute position of the top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  kind: GraphEdgeKind | 'initial';
  label: string;
  /** A long label's lines (the event, then the guard); a short one is `label` alone. */
  labelLines?: string[];
  backEdge: boolean;
  /** An edge on a loop: what the termination check says of the loops it is a hop of. */
  cycle?: CycleVerdict;
  /** The route, absolute: start, bends, end. */
  points: Array<[number, number]>;
  labelBox?: { x: number; y: number; width: number; height: number };
}

/** A statechart laid out by ELK, ready to draw as SVG (absolute coordinates). */
export interface ChartLayout {
  machineId: string;
  width: number;
  height: number;
  nodes: ChartNode[];
  edges: ChartEdge[];
  /** The state the loop badge sits on: the one that invokes `refine`, if any. */
  loopNode?: string;
  /** Why the chart was drawn by the simple fallback layout instead of ELK (too big, too slow). */
  simplified?: string;
}
