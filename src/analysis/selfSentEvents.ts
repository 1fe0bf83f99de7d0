import type { ActionEffects } from './actionEffects.js';
import type { LeafIndex } from './LeafIndex.js';
import type { GraphEdge } from './machineGraph.js';

/** The events a machine sends itself, and where each is pending. */
export interface SelfSentEvents {
  /** Sent later (a delayed `raise`, `sendTo(self)`) or on exit: pending anywhere. */
  anywhere: Set<string>;
  /** Some action sends itself an event it names at run time: any event may be self-sent. */
  anyEvent: boolean;
  /** The actors spawned by some action. */
  spawned: Set<string>;
  /** Raised at once: pending in the leaves the raising transition lands in, by leaf. */
  located: Map<number, Set<string>>;
}

/**
 * Reads, from every entry, exit and transition action, which events the machine sends itself and
 * where they are pending (a raised event also in each leaf its `always` moves lead to).
 */
export function selfSentEvents(
  leaves: LeafIndex,
  edges: readonly GraphEdge[],
  effects: {
    entries: ReadonlyMap<string, ActionEffects>;
    exits: ReadonlyMap<string, ActionEffects>;
    edgeEffects: (edge: GraphEdge) => ActionEffects;
  },
): SelfSentEvents {
  const { entries, exits, edgeEffects } = effects;
  const anywhere = new Set<string>();
  let any = false;
  const spawned = new Set<string>();
  const located = new Map<number, Set<string>>();
  const pending = (leaf: number) => {
    const events = located.get(leaf) ?? new Set<string>();
    located.set(leaf, events);
    return events;
  };
  // A raised event reaches every region of the parallel states the raising leaf is in; it is counted
  // there only when the raising transition is automated itself (a timer, an invoke, an always).
  const withRegions = (at: number[]) => {
    const out = new Set(at);
    for (const leaf of at) {
      for (const node of leaves.lineage(leaves.ids[leaf] ?? '')) {
        if (node.type === 'parallel')
          for (const id of leaves.leavesUnder(node.id)) out.add(leaves.indexOf(id) as number);
      }
    }
    return out;
  };
  const gather = (effects: ActionEffects, at: () => number[], exiting = false, spreads = false) => {
    for (const event of effects.sendsSelf) anywhere.add(event);
    for (const src of effects.spawns) spawned.add(src);
    any ||= effects.sendsAny;
    if (effects.raises.size === 0) return;
    if (exiting) for (const event of effects.raises) anywhere.add(event);
    else
      for (const leaf of spreads ? withRegions(at()) : at())
        for (const event of effects.raises) pending(leaf).add(event);
  };
  for (const [id, effects] of entries)
    gather(effects, () => leaves.leavesUnder(id).map(indexIn(leaves)));
  for (const effects of exits.values()) gather(effects, () => [], true);
  for (const edge of edges) {
    const automated = edge.kind !== 'event' || edge.event.startsWith('xstate.');
    const landing = () => (edge.targetless ? leaves.sourcesOf(edge) : leaves.entered(edge.target));
    gather(edgeEffects(edge), landing, false, automated);
  }
  closeOverAlways(located, pending, edges, leaves);
  return { anywhere, anyEvent: any, spawned, located };
}

const indexIn = (leaves: LeafIndex) => (id: string) => leaves.indexOf(id) as number;

/** An event raised on the way into a leaf is still pending in every leaf its `always` moves lead to. */
function closeOverAlways(
  located: Map<number, Set<string>>,
  pending: (leaf: number) => Set<string>,
  edges: readonly GraphEdge[],
  leaves: LeafIndex,
): void {
  if (located.size === 0) return;
  const next = new Map<number, number[]>();
  for (const edge of edges) {
    if (edge.kind !== 'always' || edge.targetless) continue;
    const targets = leaves.entered(edge.target);
    for (const from of leaves.sourcesOf(edge))
      next.set(from, [...(next.get(from) ?? []), ...targets]);
  }
  const queue = [...located.keys()];
  for (let leaf = queue.pop(); leaf !== undefined; leaf = queue.pop()) {
    const events = located.get(leaf) as Set<string>;
    for (const to of next.get(leaf) ?? []) {
      const into = pending(to);
      const before = into.size;
      for (const event of events) into.add(event);
      if (into.size > before) queue.push(to);
    }
  }
}
