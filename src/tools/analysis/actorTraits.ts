import type { AnyStateMachine } from 'xstate';
import { actionEffects, noEffects, sourceOf } from './actionEffects.js';
import { markOf } from './cycleMarkers.js';
import { forEachTransition, type StateNodeLike } from './machineGraph.js';
import { observableEventTypes } from './observableEventTypes.js';
import { personInput } from './personInput.js';
import { eventsOf, type Role, type SentEvents, sentByCalls } from './sentEvents.js';
import { balanced, propertyOf, returnedExpressions } from './sourceText.js';

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
  /**
   * It can send on its own: its source starts a timer or an interval, or (a callback) it sends
   * once its own work settles and listens to nothing.
   */
  ticks: boolean;
  /**
   * Marked `gatedBy(who, …)`, or its source shows that only the terminal or a person's DOM events
   * give it input and nothing else in it sends (see `personInput`): its events and completion wait
   * for `who`.
   */
  gatedBy?: string;
  /**
   * How its completion (done, error, snapshot events) comes: `'own'` on its own (a promise, a
   * machine, a timer), `'unseen'` maybe after a person acts (an observable: a device, a socket).
   */
  completes: 'own' | 'unseen';
  /**
   * The event types its source names, when it may send others only because part of it cannot be
   * read (an event observable built on a helper): `sendsOnly([...names], …)` is the marker to try.
   */
  names?: ReadonlySet<string>;
  /** The logic, when it is a machine (checked in turn). */
  machine?: AnyStateMachine;
}

const TIMER = /\b(setInterval|setTimeout|requestAnimationFrame|interval|timer)\s*\(/;
// A callback that sends once its own work settles (`await`, `.then(`) and listens to nothing
// (no DOM, socket or emitter handler, no `receive`) runs on its own, like a promise.
const SETTLES = /\bawait\b|\.then\s*\(/;
const LISTENS =
  /addEventListener|\.on\s*\(|\.once\s*\(|\.subscribe\s*\(|\bon[A-Z]\w*\s*=|\.listen\s*\(|\bonmessage\b|\bwatch\w*\s*\(|\breceive\s*\(/;
const TO_PARENT = /(?:\b_parent\s*\??\.\s*send|\bparent\s*\??\.\s*send|\bsendParent)\s*/;
// `const parentRef = self._parent; … parentRef.send(event)`: the parent under another name.
const PARENT_ALIAS = /\b(?:const|let|var)\s+([\w$]+)\s*=\s*self\s*\??\.\s*_parent\b/g;

/** The calls in `body` that send the parent an event: `self._parent.send`, `sendParent`, aliases. */
function toParent(body: string): RegExp {
  const aliases = [...body.matchAll(PARENT_ALIAS)].map((m) =>
    (m[1] as string).replace(/\$/g, '\\$'),
  );
  if (aliases.length === 0) return TO_PARENT;
  return new RegExp(`(?:${TO_PARENT.source}|\\b(?:${aliases.join('|')})\\s*\\??\\.\\s*send\\s*)`);
}
const NONE: ReadonlySet<string> = new Set();

/**
 * Reads an actor logic without starting it, for one place it is invoked (`input`, the invoke's
 * input, names the events a callback sends when it sends `input.<key>`). xstate's creators are
 * told apart by what their `start` does (the source text, so another copy of xstate reads the
 * same); the events it sends are traced call by call (`sendBack`, `self._parent.send`,
 * `sendParent`), `'*'` for one that cannot be traced. Markers (`gatedBy`, `sendsOnly`) win.
 * @example actorTraits(fromCallback(({ sendBack }) => setInterval(() => sendBack({ type: 'TICK' }), 10)))
 *   // → { kind: 'callback', sends: Set { 'TICK' }, ticks: true, completes: 'own' }
 */
export function actorTraits(logic: unknown, input?: unknown): ActorTraits {
  const traits = readTraits(logic, input);
  const only = markOf(logic, 'sendsOnly');
  if (only) {
    traits.sends = new Set(only.types);
    delete traits.names;
  }
  const gate = markOf(logic, 'gatedBy');
  if (gate) traits.gatedBy = gate.who;
  else if (traits.kind !== 'machine' && typeof logic === 'object' && logic !== null) {
    const body = sourceOf((logic as { config?: unknown }).config);
    const who = traits.ticks ? undefined : personInput(traits.kind, body, traits.sends.size === 0);
    if (who) traits.gatedBy = who;
  }
  return traits;
}

function readTraits(logic: unknown, input: unknown): ActorTraits {
  if (typeof logic !== 'object' || logic === null)
    return { kind: 'unknown', sends: new Set(['*']), ticks: false, completes: 'unseen' };
  if ('root' in logic && 'idMap' in logic) {
    const machine = logic as unknown as AnyStateMachine;
    return {
      kind: 'machine',
      sends: parentEvents(machine),
      ticks: false,
      completes: 'own',
      machine,
    };
  }
  const { start, config } = logic as { start?: unknown; config?: unknown };
  const runner = sourceOf(start);
  const body = sourceOf(config);
  const ticks = TIMER.test(body);
  const completes = ticks ? 'own' : 'unseen';
  if (start === undefined) return { kind: 'transition', sends: NONE, ticks: false, completes };
  if (runner.includes('sendBack')) {
    const sent = sentByCalls(body, /\bsendBack\s*/);
    // `sendBack` handed to something else (`socket.on('message', sendBack)`) sends what it is given.
    if (/\bsendBack\b(?!\s*\()/.test(body.replace(/^[^=]*?\bsendBack\b/, '')))
      sent.untraced.push({ kind: 'computed' });
    const works = SETTLES.test(body) && !LISTENS.test(body);
    return {
      kind: 'callback',
      sends: typesSent(sent, input),
      ticks: ticks || works,
      completes: 'own',
    };
  }
  if (/promise/i.test(runner))
    return {
      kind: 'promise',
      sends: typesSent(sentByCalls(body, toParent(body)), input),
      ticks: false,
      completes: 'own',
    };
  if (/_relay\(\s*self\s*,\s*self\._parent/.test(runner)) {
    const { types, computed, readable } = observableEventTypes(body);
    const sends = new Set(types);
    if (computed || !readable || types.size === 0) sends.add('*');
    const names = !computed && !readable && types.size > 0 ? { names: types } : {};
    return { kind: 'event-observable', sends, ticks, completes, ...names };
  }
  if (runner.includes('_relay(self, self'))
    return { kind: 'observable', sends: NONE, ticks, completes };
  return { kind: 'unknown', sends: new Set(['*']), ticks, completes: 'unseen' };
}

/** The event types sent, with `input.<key>` resolved against the invoke's input; `'*'` for the rest. */
function typesSent(sent: SentEvents, input: unknown): ReadonlySet<string> {
  const types = new Set(sent.types);
  for (const what of sent.untraced) {
    const named = what.kind === 'input' ? inputTypes(input, what.path, what.role) : undefined;
    if (named) for (const type of named) types.add(type);
    else types.add('*');
  }
  return types;
}

/**
 * The event types an invoke's input gives at `path` (`input.event`; `''` for the input itself):
 * read from the value when the input is an object, from what it returns when it is a function.
 */
function inputTypes(input: unknown, path: string, role: Role): string[] | undefined {
  const keys = path === '' ? [] : path.split('.');
  if (typeof input === 'function') {
    const source = sourceOf(input);
    const types = new Set<string>();
    for (const value of returnedExpressions(source) ?? []) {
      let expr: string | undefined = value.trim();
      for (const key of keys)
        expr = expr?.startsWith('{') ? propertyOf(balanced(expr, 0).inner, key)?.trim() : undefined;
      if (expr === undefined) return undefined;
      const found = eventsOf(role === 'type' ? `{ type: ${expr} }` : expr, [source]);
      if (found.untraced.length > 0) return undefined;
      for (const type of found.types) types.add(type);
    }
    return types.size > 0 ? [...types] : undefined;
  }
  let value: unknown = input;
  for (const key of keys) value = (value as Record<string, unknown> | undefined)?.[key];
  if (role === 'type') return typeof value === 'string' ? [value] : undefined;
  const type = (value as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? [type] : undefined;
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
