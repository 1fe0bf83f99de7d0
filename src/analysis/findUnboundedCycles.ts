import type { AnyStateMachine } from 'xstate';
import { elementaryCycles } from './elementaryCycles.js';
import { type GraphEdge, type GraphNode, machineGraph, WAITS_FOR_HUMAN } from './machineGraph.js';

/** A cycle of states that nothing bounds: the machine could go round it forever on its own. */
export interface UnboundedCycle {
  /** Leaf state ids in the order the cycle visits them (the first is not repeated at the end). */
  states: string[];
  /** The transition taken out of each state of `states`, in the same order. */
  edges: GraphEdge[];
}

/** Options of the static termination check. */
export interface CycleCheckOptions {
  /**
   * Which states gate a cycle on a person: `'tagged-or-external'` (default) counts states tagged
   * `waitsForHuman` and states that only external events can leave; `'tagged'` counts tagged ones only.
   */
  humanWait?: 'tagged-or-external' | 'tagged';
  /** Stop after this many cycles (default 100); the check stays fast on dense machines. */
  limit?: number;
}

/**
 * Finds every cycle of states in any XState v5 machine (`always`, `after`, invoke done/error and
 * event transitions) that passes through no budget-guarded transition and leaves no
 * human-waiting state through an event.
 * @example findUnboundedCycles(machine).map((cycle) => cycle.states.join(' → '))
 */
export function findUnboundedCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions = {},
): UnboundedCycle[] {
  const { nodes, edges } = machineGraph(machine);
  const leaves = new LeafIndex(nodes, edges, options.humanWait ?? 'tagged-or-external');
  const successors: number[][] = leaves.ids.map(() => []);
  const via = new Map<string, GraphEdge>();
  for (const edge of edges) {
    if (edge.budget) continue;
    for (const from of leaves.sourcesOf(edge)) {
      if (edge.kind === 'event' && !edge.event.startsWith('xstate.') && leaves.waits(from)) {
        continue;
      }
      // a targetless transition stays in the active leaf: a spin only if it is eventless
      for (const to of edge.targetless ? [from] : leaves.entered(edge.target)) {
        if (from === to && edge.kind !== 'always' && !edge.reenter) continue;
        const key = `${from}>${to}`;
        if (via.has(key)) continue;
        via.set(key, edge);
        successors[from]?.push(to);
      }
    }
  }
  return elementaryCycles(leaves.ids.length, successors, options.limit ?? 100).map((cycle) => ({
    states: cycle.map((v) => leaves.ids[v] ?? ''),
    edges: cycle.map((v, i) => via.get(`${v}>${cycle[(i + 1) % cycle.length]}`) as GraphEdge),
  }));
}

/**
 * Leaf states (atomic and final) in document order, and how the hierarchy maps onto them: a
 * transition declared on a compound state applies in every leaf inside it; entering a compound
 * state enters its initial leaf (every region's, for a parallel state; every leaf of the parent,
 * for a history state, conservatively).
 */
class LeafIndex {
  readonly ids: string[];
  private readonly index = new Map<string, number>();
  private readonly byId: Map<string, GraphNode>;
  private readonly children = new Map<string, GraphNode[]>();
  private readonly waiting = new Set<number>();
  private readonly passing = new Set<string>();
  private readonly completing = new Set<string>();

  constructor(nodes: GraphNode[], edges: GraphEdge[], humanWait: 'tagged-or-external' | 'tagged') {
    for (const edge of edges) {
      if (edge.kind === 'always' && edge.guard === undefined) this.passing.add(edge.source);
      if (edge.event === `xstate.done.state.${edge.source}`) this.completing.add(edge.source);
    }
    this.byId = new Map(nodes.map((node) => [node.id, node]));
    for (const node of nodes) {
      if (node.parent) this.children.set(node.parent, [...this.kids(node.parent), node]);
    }
    this.ids = nodes.filter(isLeaf).map((node) => node.id);
    this.ids.forEach((id, i) => {
      this.index.set(id, i);
      const node = this.byId.get(id) as GraphNode;
      const tagged = this.lineage(node).some((at) => at.tags.includes(WAITS_FOR_HUMAN));
      if (tagged || (humanWait === 'tagged-or-external' && node.waitsForHuman)) {
        this.waiting.add(i);
      }
    });
  }

  waits(leaf: number): boolean {
    return this.waiting.has(leaf);
  }

  /**
   * The leaves in which `edge` can be taken. A top-level final state takes none (the run is over);
   * a state left at once (an unguarded `always`, a final child whose parent has `onDone`) takes
   * only that transition, since no timer, actor or event can fire in between.
   */
  sourcesOf(edge: GraphEdge): number[] {
    const onDone = edge.event === `xstate.done.state.${edge.source}`;
    const leaves = this.leavesUnder(edge.source).filter((id) => {
      const node = this.byId.get(id) as GraphNode;
      if (onDone) return node.type === 'final';
      if (edge.kind !== 'always' && this.leftAtOnce(node)) return false;
      if (node.type !== 'final') return true;
      const parent = node.parent ? this.byId.get(node.parent) : undefined;
      return parent?.parent !== undefined;
    });
    return leaves.map((id) => this.index.get(id) as number);
  }

  private leftAtOnce(node: GraphNode): boolean {
    if (node.type === 'final' && node.parent && this.completing.has(node.parent)) return true;
    return this.lineage(node).some((at) => this.passing.has(at.id));
  }

  /** The leaves entered when a transition targets `id`. */
  entered(id: string): number[] {
    return this.entryLeaves(id).map((leaf) => this.index.get(leaf) as number);
  }

  private entryLeaves(id: string): string[] {
    const node = this.byId.get(id);
    if (!node) return [];
    if (isLeaf(node)) return [id];
    if (node.type === 'history') return node.parent ? this.leavesUnder(node.parent) : [];
    if (node.type === 'parallel') return this.kids(id).flatMap((kid) => this.entryLeaves(kid.id));
    return node.initial ? this.entryLeaves(node.initial) : [];
  }

  private leavesUnder(id: string): string[] {
    const node = this.byId.get(id);
    if (!node) return [];
    if (isLeaf(node)) return [id];
    return this.kids(id).flatMap((kid) => this.leavesUnder(kid.id));
  }

  private kids(id: string): GraphNode[] {
    return this.children.get(id) ?? [];
  }

  private lineage(node: GraphNode): GraphNode[] {
    const parent = node.parent ? this.byId.get(node.parent) : undefined;
    return parent ? [node, ...this.lineage(parent)] : [node];
  }
}

const isLeaf = (node: GraphNode) => node.type === 'atomic' || node.type === 'final';
