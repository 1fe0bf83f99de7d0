import { type GraphEdge, type GraphNode, WAITS_FOR_HUMAN } from './machineGraph.js';

/**
 * Leaf states (atomic and final) in document order, and how the hierarchy maps onto them: a
 * transition declared on a compound state applies in every leaf inside it unless a deeper state
 * handles the same event without a guard; entering a compound state enters its initial leaf (every
 * region's, for a parallel state; every leaf of the parent, conservatively, for a history state).
 * @example const leaves = new LeafIndex(graph.nodes, graph.edges); leaves.entered('m.job') // [2]
 */
export class LeafIndex {
  readonly ids: string[];
  private readonly index = new Map<string, number>();
  private readonly byId: Map<string, GraphNode>;
  private readonly children = new Map<string, GraphNode[]>();
  private readonly firm = new Map<string, Set<string>>();
  private readonly under = new Map<string, string[]>();
  private readonly lines = new Map<string, GraphNode[]>();

  constructor(nodes: readonly GraphNode[], edges: readonly GraphEdge[]) {
    for (const edge of edges) {
      if (edge.guard !== undefined) continue;
      const events = this.firm.get(edge.source) ?? new Set<string>();
      events.add(edge.event);
      this.firm.set(edge.source, events);
    }
    this.byId = new Map(nodes.map((node) => [node.id, node]));
    for (const node of nodes) {
      if (!node.parent) continue;
      const kids = this.children.get(node.parent);
      if (kids) kids.push(node);
      else this.children.set(node.parent, [node]);
    }
    this.ids = nodes.filter(isLeaf).map((node) => node.id);
    this.ids.forEach((id, i) => {
      this.index.set(id, i);
    });
  }

  indexOf(id: string): number | undefined {
    return this.index.get(id);
  }

  node(id: string): GraphNode | undefined {
    return this.byId.get(id);
  }

  /** The leaf (by index) tagged `waitsForHuman`, itself or through an ancestor. */
  tagged(leaf: number): boolean {
    return this.lineage(this.ids[leaf] ?? '').some((at) => at.tags.includes(WAITS_FOR_HUMAN));
  }

  /**
   * The leaves in which `edge` can be taken. A top-level final state takes none (the run is over);
   * a state left at once (an unguarded `always`, a final child whose parent has `onDone`) takes
   * only that transition; a compound state's `onDone` leaves from its own final children (a
   * parallel state's: its regions' final children).
   */
  sourcesOf(edge: GraphEdge): number[] {
    const completes = edge.event === `xstate.done.state.${edge.source}`;
    const leaves = completes ? this.completingFinals(edge.source) : this.leavesUnder(edge.source);
    const out: number[] = [];
    for (const id of leaves) {
      const node = this.byId.get(id) as GraphNode;
      if (!completes) {
        if (this.overridden(id, edge)) continue;
        if (node.type === 'final' && !this.byId.get(node.parent ?? '')?.parent) continue;
        if (node.type === 'final' && this.completes(node)) continue;
        if (edge.kind !== 'always' && this.passes(id)) continue;
      }
      out.push(this.index.get(id) as number);
    }
    return out;
  }

  /** The leaves entered when a transition targets `id`. */
  entered(id: string): number[] {
    return this.entryLeaves(id).map((leaf) => this.index.get(leaf) as number);
  }

  /** The state and its ancestors, innermost first. */
  lineage(id: string): GraphNode[] {
    const known = this.lines.get(id);
    if (known) return known;
    const node = this.byId.get(id);
    if (!node) return [];
    const line = [node, ...(node.parent ? this.lineage(node.parent) : [])];
    this.lines.set(id, line);
    return line;
  }

  leavesUnder(id: string): string[] {
    const known = this.under.get(id);
    if (known) return known;
    const node = this.byId.get(id);
    const leaves = !node
      ? []
      : isLeaf(node)
        ? [id]
        : this.kids(id).flatMap((kid) => this.leavesUnder(kid.id));
    this.under.set(id, leaves);
    return leaves;
  }

  /** A deeper state on the leaf's lineage takes the same event without a guard. */
  private overridden(leaf: string, edge: GraphEdge): boolean {
    for (const at of this.lineage(leaf)) {
      if (at.id === edge.source) return false;
      if (this.firm.get(at.id)?.has(edge.event)) return true;
    }
    return false;
  }

  private passes(leaf: string): boolean {
    return this.lineage(leaf).some((at) => this.firm.get(at.id)?.has('') ?? false);
  }

  private completes(final: GraphNode): boolean {
    const parent = final.parent;
    return (
      parent !== undefined && (this.firm.get(parent)?.has(`xstate.done.state.${parent}`) ?? false)
    );
  }

  private completingFinals(id: string): string[] {
    const node = this.byId.get(id);
    const finals = (parent: string) =>
      this.kids(parent)
        .filter((kid) => kid.type === 'final')
        .map((kid) => kid.id);
    if (node?.type === 'parallel') return this.kids(id).flatMap((region) => finals(region.id));
    return finals(id);
  }

  private entryLeaves(id: string): string[] {
    const node = this.byId.get(id);
    if (!node) return [];
    if (isLeaf(node)) return [id];
    if (node.type === 'history') return node.parent ? this.leavesUnder(node.parent) : [];
    if (node.type === 'parallel') return this.kids(id).flatMap((kid) => this.entryLeaves(kid.id));
    return node.initial ? this.entryLeaves(node.initial) : [];
  }

  private kids(id: string): GraphNode[] {
    return this.children.get(id) ?? [];
  }
}

const isLeaf = (node: GraphNode) => node.type === 'atomic' || node.type === 'final';
