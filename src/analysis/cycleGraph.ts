import type { AnyStateMachine } from 'xstate';
import { type ActionEffects, actionEffects, sourceOf } from './actionEffects.js';
import { type ActorTraits, actorTraits } from './actorTraits.js';
import { guardLiterals } from './describeGuard.js';
import type { CycleCheckOptions } from './findUnboundedCycles.js';
import { LeafIndex } from './LeafIndex.js';
import { type GraphEdge, type GraphNode, readMachine } from './machineGraph.js';
import { type ContextWrite, type ResetGate, resetGates } from './resetGates.js';
import { selfSentEvents } from './selfSentEvents.js';
import { contextReads } from './visibleGuardParts.js';

/** How a transition is set off: 0 by the machine itself, 1 by an actor that may relay a person, 2 from outside. */
export type Level = 0 | 1 | 2;

/** One way from a leaf to a leaf: a transition, and what sets it off there. */
export interface Hop {
  edge: GraphEdge;
  level: Level;
  /** The actors whose events set it off (levels 0 and 1, when an actor sends the event). */
  actors: string[];
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

interface Actor {
  name: string;
  traits: ActorTraits;
  mode: 'external' | 'automated' | 'ambiguous';
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
  const logics = (impl.actors ?? {}) as Record<string, unknown>;
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

  const {
    anywhere,
    anyEvent: any,
    spawned,
    located,
  } = selfSentEvents(leaves, edges, {
    entries,
    exits,
    edgeEffects,
  });

  const mode = (name: string, src: string, traits: ActorTraits): Actor['mode'] =>
    options.actors?.[name] ?? options.actors?.[src] ?? (traits.ticks ? 'automated' : 'ambiguous');
  const children: CycleGraph['children'] = [];
  const invoked = new Map<string, Actor[]>();
  for (const [id, node] of raw) {
    const inline = ([] as unknown[]).concat(node.config.invoke ?? []);
    invoked.set(
      id,
      node.invoke.map((invoke, i) => {
        const logic = logics[invoke.src] ?? (inline[i] as { src?: unknown } | undefined)?.src;
        const traits = actorTraits(logic);
        const name = invoke.id ?? invoke.src;
        if (traits.machine)
          children.push({ label: `${id} invokes ${name}`, machine: traits.machine });
        return { name, traits, mode: mode(name, invoke.src, traits) };
      }),
    );
  }
  const everywhere = [...spawned].map((src) => {
    const traits = actorTraits(logics[src]);
    if (traits.machine)
      children.push({ label: `${machine.id} spawns ${src}`, machine: traits.machine });
    return { name: src, traits, mode: mode(src, src, traits) };
  });

  const classify = (edge: GraphEdge, leaf: number): { level: Level; actors: string[] } => {
    if (edge.kind !== 'event' || edge.event.startsWith('xstate.')) return { level: 0, actors: [] };
    if (leaves.tagged(leaf)) return { level: 2, actors: [] };
    if (options.humanWait === 'tagged') return { level: 0, actors: [] };
    if (any || anywhere.has(edge.event) || located.get(leaf)?.has(edge.event))
      return { level: 0, actors: [] };
    const senders = [
      ...leaves.lineage(leaves.ids[leaf] ?? '').flatMap((at) => invoked.get(at.id) ?? []),
      ...everywhere,
    ].filter(
      (actor) =>
        actor.mode !== 'external' &&
        (actor.traits.sends.has(edge.event) || actor.traits.sends.has('*')),
    );
    const driving = senders.filter((actor) => actor.mode === 'automated');
    if (driving.length > 0) return { level: 0, actors: driving.map((actor) => actor.name) };
    if (senders.length > 0) return { level: 1, actors: senders.map((actor) => actor.name) };
    return { level: 2, actors: [] };
  };

  // A transition back into its own leaf repeats only if it spins (`always`), raises its own event,
  // or re-enters a state that sets it off again (a timer, an invoke, an entry `raise`, an actor).
  const repeats = (edge: GraphEdge, leaf: number, level: Level, actorsDrive: boolean): boolean => {
    const effects = edgeEffects(edge);
    if (edge.kind === 'always') {
      const guard = transitionOf.get(edge)?.guard;
      return !(edge.targetless && guard !== undefined && writesWhatItReads(effects, guard, guards));
    }
    const raisesOwn =
      effects.raises.has(edge.event) || effects.sendsSelf.has(edge.event) || effects.sendsAny;
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
      level === 2 ||
      actorsDrive ||
      raisesOwn ||
      anywhere.has(edge.event) ||
      any ||
      reentered.some((at) => entries.get(at.id)?.raises.has(edge.event))
    );
  };

  // Every action list that may write context, with the most automated way it can run.
  function* contextWrites(): Generator<ContextWrite> {
    for (const effects of [...entries.values(), ...exits.values()])
      yield { effects, level: 0, event: '', actors: [] };
    for (const edge of edges) {
      const effects = edgeEffects(edge);
      const ways =
        effects.writes.size === 0 ? [] : leaves.sourcesOf(edge).map((leaf) => classify(edge, leaf));
      if (ways.length === 0) continue;
      const level = Math.min(...ways.map((way) => way.level)) as Level;
      const actors = ways.filter((way) => way.level === level).flatMap((way) => way.actors);
      yield { effects, level, event: edge.event, actors };
    }
  }
  const resetGate = resetGates(contextWrites, guards);
  const gates = new Map<GraphEdge, ResetGate | undefined>();
  const waitsOn = (edge: GraphEdge, level: Level) => {
    const guard = transitionOf.get(edge)?.guard;
    if (level === 2 || guard === undefined) return undefined;
    if (!gates.has(edge)) gates.set(edge, resetGate(guard));
    return gates.get(edge);
  };

  const hops = new Map<number, Hop[]>();
  for (const edge of edges) {
    if (edge.budget) continue;
    const targets = edge.targetless ? undefined : leaves.entered(edge.target);
    for (const from of leaves.sourcesOf(edge)) {
      const { level, actors } = classify(edge, from);
      for (const to of targets ?? [from]) {
        if (from === to && !repeats(edge, from, level, actors.length > 0)) continue;
        const key = from * n + to;
        const list = hops.get(key) ?? [];
        const effects = edgeEffects(edge);
        const guard = transitionOf.get(edge)?.guard;
        const gate = waitsOn(edge, level);
        list.push({
          edge,
          level,
          actors,
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
  return { leaves, n, hops, assigning, writesAt, children };
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
