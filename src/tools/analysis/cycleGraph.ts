import type { AnyStateMachine } from 'xstate';
import { type ActionEffects, actionEffects, sourceOf } from './actionEffects.js';
import { guardLiterals } from './describeGuard.js';
import { type Assumption, type Cause, eventCauses, type QueueStatus } from './eventCauses.js';
import type { CycleCheckOptions } from './findUnboundedCycles.js';
import { invokedActors } from './invokedActors.js';
import { LeafIndex } from './LeafIndex.js';
import { type GraphEdge, type GraphNode, readMachine } from './machineGraph.js';
import { type ContextWrite, type ResetGate, resetGates } from './resetGates.js';
import { onlyRemoves, selfSentEvents } from './selfSentEvents.js';
import { contextReads } from './visibleGuardParts.js';

/**
 * How a transition is set off: 0 by the machine itself, 1 by something the check cannot see through
 * (an actor that may relay a person), 2 from outside; 3 it is guarded by a budget guard.
 */
export type Level = 0 | 1 | 2 | 3;

/** One way from a leaf to a leaf: a transition, and what sets it off there. */
export interface Hop {
  edge: GraphEdge;
  level: Level;
  /** The actors whose events set it off (levels 0 and 1, when an actor sends the event). */
  actors: string[];
  /** Level 1: what would make it wait, each with its marker. */
  assumptions: Assumption[];
  /** Level 2: what it waits for, and the events (or queue) it names. */
  gate?: Cause['gate'];
  gates: string[];
  /** What its guard requires (`always` hops only), for the complementary-guard check. */
  literals: string[];
  assigns: boolean;
  /** Its guard waits on context only outside events fill: gated on a cycle that resets it. */
  waitsOn?: ResetGate;
}

/** The leaf graph of one machine, each pair of leaves keyed `from * n + to`, hops best first. */
export interface CycleGraph {
  leaves: LeafIndex;
  n: number;
  hops: Map<number, Hop[]>;
  /** Leaves whose entry or exit actions (or an ancestor's) may change context. */
  assigning: Set<number>;
  /** The context keys a hop along `edge` from leaf `from` to leaf `to` assigns (actions, entries, exits). */
  writesAt: (edge: GraphEdge, from: number, to: number) => ReadonlySet<string>;
  /** Child machines invoked or spawned, and how the parent reaches each. */
  children: Array<{ label: string; machine: AnyStateMachine }>;
}

const KIND_RANK = { always: 0, after: 1, done: 2, error: 3, event: 4 } as const;

/**
 * Builds the graph the termination check searches: every transition, in every leaf it can be taken
 * from, to every leaf it enters, classified per event (see `Level`).
 * @example cycleGraph(machine, {}).hops.get(0) // the ways from leaf 0 back to leaf 0
 */
export function cycleGraph(machine: AnyStateMachine, options: CycleCheckOptions): CycleGraph {
  const impl = machine.implementations ?? {};
  const actions = (impl.actions ?? {}) as Record<string, unknown>;
  const guards = (impl.guards ?? {}) as Record<string, unknown>;
  const { graph, stateNodes: raw, transitionOf } = readMachine(machine);
  const { nodes, edges } = graph;
  const leaves = new LeafIndex(nodes, edges);
  const n = leaves.ids.length;
  const effectsOf = new Map<GraphEdge, ActionEffects>();
  const edgeEffects = (edge: GraphEdge) => {
    let known = effectsOf.get(edge);
    if (!known) {
      known = actionEffects(transitionOf.get(edge)?.actions ?? [], actions);
      effectsOf.set(edge, known);
    }
    return known;
  };
  const entries = new Map([...raw].map(([id, node]) => [id, actionEffects(node.entry, actions)]));
  const exits = new Map(
    [...raw].map(([id, node]) => [id, actionEffects(node.exit ?? [], actions)]),
  );

  const sent = selfSentEvents(leaves, edges, { entries, exits, edgeEffects });
  const actors = invokedActors(machine, raw, sent.spawned, options);
  const causeOf = eventCauses(leaves, sent, actors, options);
  const pendingHere = (leaf: number) =>
    sent.untracedAnywhere.length > 0 || (sent.untracedAt.get(leaf)?.size ?? 0) > 0;

  // A transition back into its own leaf repeats only if it spins (`always`), raises its own event,
  // or re-enters a state that sets it off again (a timer, an invoke, an entry `raise`, an actor).
  const repeats = (edge: GraphEdge, leaf: number, cause: Cause): boolean => {
    const effects = edgeEffects(edge);
    if (edge.kind === 'always') {
      const guard = transitionOf.get(edge)?.guard;
      return !(edge.targetless && guard !== undefined && writesWhatItReads(effects, guard, guards));
    }
    const raisesOwn =
      effects.raises.has(edge.event) ||
      effects.sendsSelf.has(edge.event) ||
      effects.untraced.length > 0;
    const line = leaves.lineage(leaves.ids[leaf] ?? '');
    const reentered = edge.targetless ? [] : line.slice(0, domainOf(edge, line));
    if (reentered.length === 0) return edge.kind === 'event' && raisesOwn;
    if (edge.kind === 'after') return reentered.some((at) => at.id === edge.source);
    if (edge.kind === 'done' || edge.kind === 'error') {
      const id = edge.event.replace(/^xstate\.(done|error)\.actor\./, '');
      const owner = line.find((at) =>
        raw.get(at.id)?.invoke.some((inv) => (inv.id ?? inv.src) === id),
      );
      return owner === undefined || reentered.includes(owner);
    }
    return (
      cause.level > 0 ||
      cause.actors.length > 0 ||
      raisesOwn ||
      sent.anywhere.has(edge.event) ||
      pendingHere(leaf) ||
      reentered.some((at) => entries.get(at.id)?.raises.has(edge.event))
    );
  };

  // Every action list that may write context, with the most automated way it can run.
  function* contextWrites(): Generator<ContextWrite> {
    for (const effects of [...entries.values(), ...exits.values()])
      yield { effects, level: 0, event: '', actors: [], assumptions: [] };
    for (const edge of edges) {
      const effects = edgeEffects(edge);
      const ways =
        effects.writes.size === 0 ? [] : leaves.sourcesOf(edge).map((leaf) => causeOf(edge, leaf));
      if (ways.length === 0) continue;
      const level = Math.min(...ways.map((way) => way.level)) as Level;
      const best = ways.filter((way) => way.level === level);
      const actors = best.flatMap((way) => way.actors);
      const assumptions = best.flatMap((way) => way.assumptions);
      yield { effects, level, event: edge.event, actors, assumptions };
    }
  }
  const resetGate = resetGates(contextWrites, guards);
  const queues = new Map<string, QueueStatus>();
  const queueStatus = (key: string) => {
    const known = queues.get(key) ?? queueOf(key, contextWrites());
    queues.set(key, known);
    return known;
  };
  const classify = (edge: GraphEdge, leaf: number) => causeOf(edge, leaf, queueStatus);
  const gates = new Map<GraphEdge, ResetGate | undefined>();
  const waitsOn = (edge: GraphEdge, level: Level) => {
    const guard = transitionOf.get(edge)?.guard;
    if (level >= 2 || guard === undefined) return undefined;
    if (!gates.has(edge)) gates.set(edge, resetGate(guard));
    return gates.get(edge);
  };

  const hops = new Map<number, Hop[]>();
  for (const edge of edges) {
    const targets = edge.targetless ? undefined : leaves.entered(edge.target);
    for (const from of leaves.sourcesOf(edge)) {
      const cause = classify(edge, from);
      const { level, actors } = cause;
      for (const to of targets ?? [from]) {
        if (from === to && !repeats(edge, from, cause)) continue;
        const key = from * n + to;
        const list = hops.get(key) ?? [];
        const effects = edgeEffects(edge);
        const guard = transitionOf.get(edge)?.guard;
        const gate = waitsOn(edge, level);
        list.push({
          edge,
          level: edge.budget ? 3 : level,
          actors,
          assumptions: cause.assumptions,
          ...(cause.gate ? { gate: cause.gate } : {}),
          gates: cause.gates,
          literals:
            edge.kind === 'always' && guard !== undefined ? guardLiterals(guard, guards) : [],
          assigns: effects.assigns,
          ...(gate ? { waitsOn: gate } : {}),
        });
        hops.set(key, list);
      }
    }
  }
  const depthOf = (edge: GraphEdge) => leaves.lineage(edge.source).length;
  for (const list of hops.values()) {
    list.sort(
      (a, b) =>
        a.level - b.level ||
        KIND_RANK[a.edge.kind] - KIND_RANK[b.edge.kind] ||
        depthOf(b.edge) - depthOf(a.edge),
    );
  }
  const assigning = new Set<number>();
  leaves.ids.forEach((id, leaf) => {
    if (leaves.lineage(id).some((at) => entries.get(at.id)?.assigns || exits.get(at.id)?.assigns)) {
      assigning.add(leaf);
    }
  });
  // Entered and exited: the states on one leaf's lineage but not the other's (a hop back into its
  // own leaf: the states it re-enters). States it may also re-enter higher up are not counted.
  const writesAt = (edge: GraphEdge, from: number, to: number) => {
    const out = new Set(edgeEffects(edge).writes);
    const left = leaves.lineage(leaves.ids[from] ?? '');
    const right = leaves.lineage(leaves.ids[to] ?? '');
    const again = from !== to || edge.targetless ? [] : left.slice(0, domainOf(edge, left));
    const exited = from === to ? again : left.filter((at) => !right.includes(at));
    const entered = from === to ? again : right.filter((at) => !left.includes(at));
    for (const at of exited) for (const key of exits.get(at.id)?.writes ?? []) out.add(key);
    for (const at of entered) for (const key of entries.get(at.id)?.writes ?? []) out.add(key);
    return out;
  };
  return { leaves, n, hops, assigning, writesAt, children: actors.children };
}

/**
 * Where, on a leaf's lineage (innermost first), a transition back into that leaf stops exiting:
 * its source when it targets the source or below without `reenter`, else the nearest compound
 * state above both (xstate's transition domain). Every state below it is exited and re-entered.
 */
function domainOf(edge: GraphEdge, line: readonly GraphNode[]): number {
  const source = line.findIndex((at) => at.id === edge.source);
  const target = line.findIndex((at) => at.id === edge.target);
  if (!edge.reenter && target !== -1 && target <= source) return source;
  let domain = Math.max(source, target) + 1;
  while (domain < line.length - 1 && line[domain]?.type === 'parallel') domain++;
  return domain;
}

/**
 * A targetless guarded `always` is taken to fire once per change of what its guard reads ('ate
 * apple' moves the apple): true when its actions may write a context key the guard's source reads,
 * or when either side cannot be read (a function-form `assign`, a composite guard).
 */
function writesWhatItReads(
  effects: ActionEffects,
  guard: unknown,
  guards: Readonly<Record<string, unknown>>,
): boolean {
  if (!effects.assigns) return false;
  if (effects.writes.has('*')) return true;
  const name = typeof guard === 'string' ? guard : (guard as { type?: unknown })?.type;
  const impl = typeof guard === 'function' ? guard : guards[String(name)];
  if (typeof impl !== 'function' || 'check' in impl) return true;
  const read = contextReads(sourceOf(impl));
  return read.length === 0 || read.some((key) => effects.writes.has(key));
}

/**
 * A replayed queue is drained by the lap when no move of the machine's own adds to it (each only
 * removes: `slice(1)`, `filter`, `[]`); it is then refilled only by the events that write it.
 */
function queueOf(key: string, writes: Iterable<ContextWrite>): QueueStatus {
  const refills = new Set<string>();
  const actors = new Set<string>();
  let own = false;
  for (const write of writes) {
    const { effects, level } = write;
    if (!effects.writes.has(key) && !effects.writes.has('*')) continue;
    const texts = effects.writes.has('*') ? [''] : (effects.assignedText.get(key) ?? []);
    if (level === 0) own ||= !texts.every(onlyRemoves);
    else if (level === 1) for (const actor of write.actors) actors.add(actor);
    else refills.add(write.event);
  }
  const why = own
    ? "a move of the machine's own also adds to it"
    : actors.size > 0
      ? `${[...actors].join(', ')} may add to it on their own`
      : undefined;
  if (!why) return { level: 2, refills: [...refills] };
  return {
    level: 1,
    refills: [...refills],
    assumption: {
      text: `queue \`${key}\` is refilled only from outside (${why})`,
      marker: `drainsQueue('${key}', …)`,
      hint: { marker: 'drainsQueue', queue: key },
    },
  };
}
