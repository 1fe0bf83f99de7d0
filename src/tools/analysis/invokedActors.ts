import type { AnyStateMachine } from 'xstate';
import { type ActorTraits, actorTraits } from './actorTraits.js';
import type { CycleCheckOptions } from './findUnboundedCycles.js';
import type { StateNodeLike } from './machineGraph.js';

/** An actor a machine invokes or spawns, and how its events and completion come. */
export interface Actor {
  /** The invoke id (or the `src` name, for a spawned actor). */
  name: string;
  /** The `src` name: the key under `setup({ actors })`, or `xstate.invoke…` for an inline logic. */
  src: string;
  traits: ActorTraits;
  /**
   * `external`: it relays a person or the outside (declared, or marked `gatedBy`); `automated`:
   * it runs on its own (a promise, a timer, or declared); `ambiguous`: the check cannot tell.
   */
  mode: 'external' | 'automated' | 'ambiguous';
}

/** The actors of one machine: invoked per state id, spawned anywhere, and the child machines. */
export interface MachineActors {
  invoked: Map<string, Actor[]>;
  spawned: Actor[];
  children: Array<{ label: string; machine: AnyStateMachine }>;
}

/**
 * Reads every actor a machine invokes (per state, each with its invoke's input) or spawns, and
 * decides how each one's events come (see `Actor.mode`); `options.actors` wins over what is read.
 * @example invokedActors(machine, stateNodes, new Set(), {}).invoked.get('m.polling') // [{ name, mode: 'automated' }]
 */
export function invokedActors(
  machine: AnyStateMachine,
  stateNodes: ReadonlyMap<string, StateNodeLike>,
  spawned: ReadonlySet<string>,
  options: CycleCheckOptions,
): MachineActors {
  const logics = (machine.implementations?.actors ?? {}) as Record<string, unknown>;
  const children: MachineActors['children'] = [];
  const mode = (name: string, src: string, traits: ActorTraits): Actor['mode'] =>
    options.actors?.[name] ??
    options.actors?.[src] ??
    (traits.gatedBy !== undefined
      ? 'external'
      : traits.kind === 'promise' || traits.ticks
        ? 'automated'
        : 'ambiguous');
  const invoked = new Map<string, Actor[]>();
  for (const [id, node] of stateNodes) {
    const inline = ([] as unknown[]).concat(node.config.invoke ?? []);
    invoked.set(
      id,
      node.invoke.map((invoke, i) => {
        const logic = logics[invoke.src] ?? (inline[i] as { src?: unknown } | undefined)?.src;
        const traits = actorTraits(logic, (invoke as { input?: unknown }).input);
        const name = invoke.id ?? invoke.src;
        if (traits.machine)
          children.push({ label: `${id} invokes ${name}`, machine: traits.machine });
        return { name, src: invoke.src, traits, mode: mode(name, invoke.src, traits) };
      }),
    );
  }
  const everywhere = [...spawned].map((src) => {
    const traits = actorTraits(logics[src]);
    if (traits.machine)
      children.push({ label: `${machine.id} spawns ${src}`, machine: traits.machine });
    return { name: src, src, traits, mode: mode(src, src, traits) };
  });
  return { invoked, spawned: everywhere, children };
}

/** How the marker names an actor's logic: its `setup` key, or the inline invoke it sits in. */
export function actorMarker(actor: Actor, who = 'user'): string {
  const logic = actor.src.startsWith('xstate.invoke') ? 'the inline logic' : actor.src;
  return `gatedBy('${who}', ${logic})`;
}

/** A few words for the kind of actor, in explanations. */
export function actorKind(actor: Actor): string {
  const kind = actor.traits.kind === 'event-observable' ? 'event observable' : actor.traits.kind;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
