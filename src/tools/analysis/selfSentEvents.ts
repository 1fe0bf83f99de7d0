import type { ActionEffects, UntracedSend } from './actionEffects.js';
import type { LeafIndex } from './LeafIndex.js';
import type { GraphEdge } from './machineGraph.js';

/** An action that sends the machine an event whose type the check cannot name, and where it runs. */
export interface UntracedSource extends UntracedSend {
  /** Where the action runs: `entry of m.idle`, `exit of m.busy`, `m.a →(GO) m.b`. */
  where: string;
  /** A queue replay that removes, in the same actions, what it replays (or is marked so). */
  drains: boolean;
}

/** The events a machine sends itself, and where each is pending. */
export interface SelfSentEvents {
  /** Sent later (a delayed `raise`, `sendTo(self)`) or on exit: pending anywhere. */
  anywhere: Set<string>;
  /** Sends of a computed type pending anywhere: any event may be one of them. */
  untracedAnywhere: UntracedSource[];
  /** The actors spawned by some action. */
  spawned: Set<string>;
  /** Raised at once: pending in the leaves the raising transition lands in, by leaf. */
  located: Map<number, Set<string>>;
  /** Raised at once with a computed type: pending in the leaves it lands in, by leaf. */
  untracedAt: Map<number, Set<UntracedSource>>;
}

// `context.queue.slice(1)`, `.filter(…)`, `.shift()`, `([, ...rest]) => rest`, `[]`: it removes.
const SHRINKS =
  /\.slice\(\s*(?:1|0\s*,\s*-1)\s*[,)]|\.filter\(|\.shift\(\s*\)|\.pop\(\s*\)|\.splice\(|\[\s*,\s*\.\.\.|^\s*\[\s*\]\s*$/;

/** Whether an assigned expression (source text) only removes from an array: a queue drained. */
export const onlyRemoves = (text: string) => SHRINKS.test(text) && !/\[\s*\.\.\.[^\]]*,/.test(text);

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
  const out: SelfSentEvents = {
    anywhere: new Set(),
    untracedAnywhere: [],
    spawned: new Set(),
    located: new Map(),
    untracedAt: new Map(),
  };
  const at = <T>(map: Map<number, Set<T>>, leaf: number) => {
    const known = map.get(leaf) ?? new Set<T>();
    map.set(leaf, known);
    return known;
  };
  // A raised event reaches every region of the parallel states the raising leaf is in; it is counted
  // there only when the raising transition is automated itself (a timer, an invoke, an always).
  const withRegions = (from: number[]) => {
    const all = new Set(from);
    for (const leaf of from) {
      for (const node of leaves.lineage(leaves.ids[leaf] ?? '')) {
        if (node.type === 'parallel')
          for (const id of leaves.leavesUnder(node.id)) all.add(leaves.indexOf(id) as number);
      }
    }
    return all;
  };
  const gather = (
    fx: ActionEffects,
    where: string,
    landing: () => number[],
    exiting = false,
    spreads = false,
  ) => {
    for (const event of fx.sendsSelf) out.anywhere.add(event);
    for (const src of fx.spawns) out.spawned.add(src);
    const untraced = fx.untraced.map((send) => ({ ...send, where, drains: drains(fx, send) }));
    const here = untraced.filter((send) => send.immediate && !exiting);
    out.untracedAnywhere.push(...untraced.filter((send) => !here.includes(send)));
    if (fx.raises.size === 0 && here.length === 0) return;
    if (exiting) for (const event of fx.raises) out.anywhere.add(event);
    const into = exiting ? [] : spreads ? withRegions(landing()) : landing();
    for (const leaf of into) {
      if (!exiting) for (const event of fx.raises) at(out.located, leaf).add(event);
      for (const send of here) at(out.untracedAt, leaf).add(send);
    }
  };
  for (const [id, fx] of entries)
    gather(fx, `entry of ${id}`, () => leaves.leavesUnder(id).map(indexIn(leaves)));
  for (const [id, fx] of exits) gather(fx, `exit of ${id}`, () => [], true);
  for (const edge of edges) {
    const automated = edge.kind !== 'event' || edge.event.startsWith('xstate.');
    const landing = () => (edge.targetless ? leaves.sourcesOf(edge) : leaves.entered(edge.target));
    const where = `${edge.source} →(${edge.event || 'always'}) ${edge.target}`;
    gather(edgeEffects(edge), where, landing, false, automated);
  }
  closeOverAlways(out.located, edges, leaves);
  closeOverAlways(out.untracedAt, edges, leaves);
  return out;
}

/** A replay drains its queue when the same actions only remove from it, or it is marked so. */
function drains(fx: ActionEffects, send: UntracedSend): boolean {
  if (send.declared) return true;
  if (send.queue === undefined) return false;
  const texts = fx.assignedText.get(send.queue) ?? [];
  return texts.length > 0 && texts.every(onlyRemoves);
}

const indexIn = (leaves: LeafIndex) => (id: string) => leaves.indexOf(id) as number;

/** What is raised on the way into a leaf is still pending in every leaf its `always` moves lead to. */
function closeOverAlways<T>(
  located: Map<number, Set<T>>,
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
    const pending = located.get(leaf) as Set<T>;
    for (const to of next.get(leaf) ?? []) {
      const into = located.get(to) ?? new Set<T>();
      located.set(to, into);
      const before = into.size;
      for (const item of pending) into.add(item);
      if (into.size > before) queue.push(to);
    }
  }
}
