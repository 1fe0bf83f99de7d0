import type { CycleCheckOptions } from './findUnboundedCycles.js';
import { type Actor, actorKind, actorMarker, type MachineActors } from './invokedActors.js';
import type { LeafIndex } from './LeafIndex.js';
import type { GraphEdge } from './machineGraph.js';
import type { SelfSentEvents, UntracedSource } from './selfSentEvents.js';

/** Where a marker goes, as data: the marker, and the actor or action it wraps. */
export interface MarkerHint {
  marker: 'gatedBy' | 'sendsOnly' | 'drainsQueue';
  /** The actor's `src`: its key in `setup({ actors })`, or `xstate.invoke…` for an inline logic. */
  actor?: string;
  /** The action's name in `setup({ actions })`, when it has one. */
  action?: string;
  /** Where an inline action runs (`entry of m.idle`, `m.a →(GO) m.b`). */
  where?: string;
  /** `sendsOnly` on an actor: the event types it names, the list the marker would state. */
  types?: string[];
  /** `drainsQueue`: the context key of the queue. */
  queue?: string;
}

/** Something a cycle's verdict turns on that the check cannot see, and the marker that states it. */
export interface Assumption {
  /** The fact that, if it holds, makes the hop wait (a sentence fragment). */
  text: string;
  /** The one line that states it in the machine's code. */
  marker: string;
  /** The same marker as data. */
  hint: MarkerHint;
}

/** What sets a transition off in one leaf. */
export interface Cause {
  /** 0 the machine itself, 1 something the check cannot see through, 2 something outside. */
  level: 0 | 1 | 2;
  /** The actors whose events or completion set it off. */
  actors: string[];
  /** Level 1: what would make it wait. */
  assumptions: Assumption[];
  /** Level 2: what it waits for: a person (a tagged state), an outside event, an actor marked `gatedBy`, a queue. */
  gate?: 'human' | 'event' | 'actor' | 'queue';
  /** Level 2: the events (or the queue) it waits for. */
  gates: string[];
}

/** Whether a queue the machine replays is drained by the lap and refilled only from outside. */
export interface QueueStatus {
  level: 1 | 2;
  /** Level 2: the events that refill it (none: it holds only its initial items). */
  refills: string[];
  /** Level 1: why it cannot be told. */
  assumption?: Assumption;
}

const AUTOMATED: Cause = { level: 0, actors: [], assumptions: [], gates: [] };

/**
 * Classifies a transition in a leaf by what can set it off there (see `Cause`). `queueStatus`
 * decides replayed queues; without it (`undefined`), a replay that drains counts as outside input.
 * @example causeOf(edge, leaf) // { level: 2, gate: 'event', gates: ['SAVE'], … }
 */
export function eventCauses(
  leaves: LeafIndex,
  sent: SelfSentEvents,
  actors: MachineActors,
  options: CycleCheckOptions,
) {
  const byLeaf = new Map<number, Actor[]>();
  const lineageActors = (leaf: number) => {
    let known = byLeaf.get(leaf);
    if (!known) {
      known = leaves
        .lineage(leaves.ids[leaf] ?? '')
        .flatMap((at) => actors.invoked.get(at.id) ?? []);
      byLeaf.set(leaf, known);
    }
    return known;
  };

  return (edge: GraphEdge, leaf: number, queueStatus?: (key: string) => QueueStatus): Cause => {
    if (edge.kind === 'always' || edge.kind === 'after') return AUTOMATED;
    const completion = /^xstate\.(?:done|error|snapshot)\.actor\.(.+)$/.exec(edge.event);
    if (completion) return completionCause(lineageActors(leaf), completion[1] as string, edge);
    if (edge.event.startsWith('xstate.')) return AUTOMATED;
    if (leaves.tagged(leaf))
      return { level: 2, actors: [], assumptions: [], gate: 'human', gates: [edge.event] };
    if (options.humanWait === 'tagged') return AUTOMATED;
    const event = edge.event;
    if (sent.anywhere.has(event) || sent.located.get(leaf)?.has(event)) return AUTOMATED;
    const senders = [...lineageActors(leaf), ...actors.spawned].filter(
      (actor) =>
        actor.mode !== 'external' && (actor.traits.sends.has(event) || actor.traits.sends.has('*')),
    );
    // An actor that names other event types and may send this one only because part of its
    // source cannot be read is never taken as driving the hop: it may, so it is not gated either.
    const guessed = (actor: Actor) =>
      actor.traits.names !== undefined && !actor.traits.names.has(event);
    const driving = senders.filter((actor) => actor.mode === 'automated' && !guessed(actor));
    if (driving.length > 0) return { ...AUTOMATED, actors: driving.map((actor) => actor.name) };

    const assumptions: Assumption[] = senders.map((actor) =>
      guessed(actor)
        ? sendsOnlyActor(actor, [...(actor.traits.names ?? [])], event)
        : {
            text: `${actorKind(actor)} \`${actor.name}\` sends ${event} only when a person acts`,
            marker: actorMarker(actor),
            hint: { marker: 'gatedBy', actor: actor.src },
          },
    );
    const queues = new Map<string, string[]>();
    const here = sent.untracedAt.get(leaf);
    const untraced = here ? [...sent.untracedAnywhere, ...here] : sent.untracedAnywhere;
    for (const source of untraced) {
      const status = source.drains && source.queue ? queueStatus?.(source.queue) : undefined;
      if (source.drains && source.queue && (!status || status.level === 2 || source.declared))
        queues.set(source.queue, status?.refills ?? []);
      else assumptions.push(computedSend(source, event, status?.assumption));
    }
    if (assumptions.length > 0)
      return { level: 1, actors: senders.map((actor) => actor.name), assumptions, gates: [] };
    if (queues.size > 0) {
      const gates = [...queues].map(([key, refills]) => queueGate(key, refills));
      return { level: 2, actors: [], assumptions: [], gate: 'queue', gates: [event, ...gates] };
    }
    return { level: 2, actors: [], assumptions: [], gate: 'event', gates: [event] };
  };
}

/** An actor that names `types` and builds on a stream the check cannot read: it may send `event`. */
function sendsOnlyActor(actor: Actor, types: string[], event: string): Assumption {
  const list = `[${types.map((type) => `'${type}'`).join(', ')}]`;
  const logic = actor.src.startsWith('xstate.invoke') ? 'the inline logic' : actor.src;
  return {
    text: `${actorKind(actor)} \`${actor.name}\`, which names only ${types.join(', ')} but builds on a stream the check cannot read, never sends ${event}`,
    marker: `sendsOnly(${list}, ${logic})`,
    hint: { marker: 'sendsOnly', actor: actor.src, types },
  };
}

/** A done, error or snapshot event: set off by the actor that completes, as its mode says. */
function completionCause(actors: readonly Actor[], id: string, edge: GraphEdge): Cause {
  const actor = actors.find((one) => one.name === id);
  if (!actor || actor.mode === 'automated') return AUTOMATED;
  if (actor.mode === 'external')
    return { level: 2, actors: [actor.name], assumptions: [], gate: 'actor', gates: [edge.event] };
  if (actor.traits.completes === 'own') return AUTOMATED;
  return {
    level: 1,
    actors: [actor.name],
    assumptions: [
      {
        text: `${actorKind(actor)} \`${actor.name}\` completes only after a person acts`,
        marker: actorMarker(actor),
        hint: { marker: 'gatedBy', actor: actor.src },
      },
    ],
    gates: [],
  };
}

/** A send the check cannot name: a queue replay (drainsQueue settles it) or computed (sendsOnly). */
function computedSend(source: UntracedSource, event: string, queue?: Assumption): Assumption {
  const place = { ...(source.name ? { action: source.name } : {}), where: source.where };
  if (source.queue)
    return {
      text:
        queue?.text ??
        `${source.action} in ${source.where} replays queue \`${source.queue}\`, which only outside events fill and each lap drains`,
      marker: `drainsQueue('${source.queue}', ${source.action})`,
      hint: { marker: 'drainsQueue', queue: source.queue, ...place },
    };
  return {
    text: `${source.action} in ${source.where}, which computes the event it sends, never sends ${event}`,
    marker: `sendsOnly([…], ${source.action})`,
    hint: { marker: 'sendsOnly', ...place },
  };
}

function queueGate(key: string, refills: readonly string[]): string {
  return refills.length > 0
    ? `queue ${key} (refilled by ${refills.join(', ')})`
    : `queue ${key} (its initial items)`;
}
