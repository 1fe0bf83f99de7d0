import type { AnyStateMachine } from 'xstate';
import { actionEffects, eventLiterals, noEffects, sourceOf } from './actionEffects.js';
import { forEachTransition, type StateNodeLike } from './machineGraph.js';

/** How an actor's logic can talk to the machine that runs it. */
export interface ActorTraits {
  kind:
    | 'machine'
    | 'promise'
    | 'callback'
    | 'observable'
    | 'event-observable'
    | 'transition'
    | 'unknown';
  /** Event types it may send its parent (beyond done/error/snapshot); `'*'` when it may send any. */
  sends: ReadonlySet<string>;
  /** Its source starts a timer or an interval: it can keep sending on its own. */
  ticks: boolean;
  /** The logic, when it is a machine (checked in turn). */
  machine?: AnyStateMachine;
}

const TIMER = /\b(setInterval|setTimeout|requestAnimationFrame|interval|timer)\s*\(/;
const NONE: ReadonlySet<string> = new Set();

/**
 * Reads an actor logic without starting it. xstate's creators are told apart by what their
 * `start` does (the source text, so another copy of xstate reads the same); a callback's or an
 * event observable's events come from the literals its source names, `'*'` when it names none.
 * @example actorTraits(fromCallback(({ sendBack }) => setInterval(() => sendBack({ type: 'TICK' }), 10)))
 *   // → { kind: 'callback', sends: Set { 'TICK' }, ticks: true }
 */
export function actorTraits(logic: unknown): ActorTraits {
  if (typeof logic !== 'object' || logic === null)
    return { kind: 'unknown', sends: new Set(['*']), ticks: false };
  if ('root' in logic && 'idMap' in logic) {
    const machine = logic as unknown as AnyStateMachine;
    return { kind: 'machine', sends: parentEvents(machine), ticks: false, machine };
  }
  const { start, config } = logic as { start?: unknown; config?: unknown };
  const runner = sourceOf(start);
  const body = sourceOf(config);
  const ticks = TIMER.test(body);
  const sent = (): ReadonlySet<string> => {
    const types = eventLiterals(body);
    return new Set(types.length > 0 ? types : ['*']);
  };
  if (start === undefined) return { kind: 'transition', sends: NONE, ticks: false };
  if (runner.includes('sendBack')) return { kind: 'callback', sends: sent(), ticks };
  if (/_relay\(\s*self\s*,\s*self\._parent/.test(runner))
    return { kind: 'event-observable', sends: sent(), ticks };
  if (runner.includes('_relay(self, self')) return { kind: 'observable', sends: NONE, ticks };
  if (/promise/i.test(runner)) return { kind: 'promise', sends: NONE, ticks: false };
  return { kind: 'unknown', sends: new Set(['*']), ticks };
}

const parentsOf = new WeakMap<AnyStateMachine, ReadonlySet<string>>();

/** The events a machine's actions send to its parent. */
function parentEvents(machine: AnyStateMachine): ReadonlySet<string> {
  const known = parentsOf.get(machine);
  if (known) return known;
  const actions = (machine.implementations?.actions ?? {}) as Record<string, unknown>;
  const effects = noEffects();
  const read = (node: StateNodeLike) => {
    actionEffects(node.entry, actions, effects);
    actionEffects(node.exit ?? [], actions, effects);
  };
  forEachTransition(machine, read, (_node, _event, transition) => {
    actionEffects(transition.actions, actions, effects);
  });
  parentsOf.set(machine, effects.toParent);
  return effects.toParent;
}
