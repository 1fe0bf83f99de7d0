import { markOf } from './cycleMarkers.js';
import { enqueuedEffects } from './enqueuedEffects.js';
import { eventsOf, type SentEvents, sentByCalls } from './sentEvents.js';

/** An action that sends the machine itself an event whose type the check cannot name. */
export interface UntracedSend {
  /** The action, as the marker should name it: `'replay'`, `raise(…)`, `enqueueActions(…)`. */
  action: string;
  /** Its name in `setup({ actions })`, when it has one. */
  name?: string;
  /** A `raise` without a delay: handled where the raising transition lands, not anywhere. */
  immediate: boolean;
  /** Set when it replays the head of this context array (`context.queue[0]`). */
  queue?: string;
  /** Marked `drainsQueue(queue, …)`: it removes what it replays, and only outside events refill. */
  declared?: boolean;
}

/** What a list of actions can do to the machine running them, read without running them. */
export interface ActionEffects {
  /** Event types raised at once (`raise` without a delay): handled in the state the transition reaches. */
  raises: Set<string>;
  /** Event types sent to the machine itself later (a delayed `raise`, `sendTo(self)`, `enqueueActions`). */
  sendsSelf: Set<string>;
  /** Events sent to itself whose type is computed: any event may be one of them. */
  untraced: UntracedSend[];
  /** Event types sent to the parent (`sendParent`, `sendTo` the parent); `'*'` when one is dynamic. */
  toParent: Set<string>;
  /** Context may change (`assign`, `enqueueActions`). */
  assigns: boolean;
  /** The context keys written, when every write names its keys (`assign({ n: … })`); `'*'` otherwise. */
  writes: Set<string>;
  /** What each key `writes` names is assigned, in order: a value, or a function that computes one. */
  assigned: Map<string, unknown[]>;
  /** How each key `writes` names is assigned, as source text (a function's, or the value as JSON). */
  assignedText: Map<string, string[]>;
  /** The `src` names of actors spawned (`spawnChild`, `spawn('name')` inside `assign`). */
  spawns: Set<string>;
}

type Named = Readonly<Record<string, unknown>>;

/** An empty `ActionEffects`. */
export function noEffects(): ActionEffects {
  return {
    raises: new Set(),
    sendsSelf: new Set(),
    untraced: [],
    toParent: new Set(),
    assigns: false,
    writes: new Set(),
    assigned: new Map(),
    assignedText: new Map(),
    spawns: new Set(),
  };
}

const MAX_DEPTH = 16;
// What an empty action list does: shared, never written to (an empty list returns before writing).
const NONE = noEffects();
const SELF_SEND = /\bself\s*\??\.\s*send\s*/;
const PARENT_SEND = /(?:\b_parent\s*\??\.\s*send|\bsendParent)\s*/;

/**
 * Reads xstate's built-in action objects (named ones looked up in `actions`, the machine's
 * `implementations.actions`); an `enqueueActions` body or a plain action is read from its source
 * text. Each sent event's type is traced where it is computed (`sentEvents`); markers
 * (`sendsOnly`, `drainsQueue`) state what cannot be traced.
 * @example actionEffects([raise({ type: 'tick' })], {}).raises // Set { 'tick' }
 */
export function actionEffects(
  list: readonly unknown[],
  actions: Named,
  into: ActionEffects = list.length === 0 ? NONE : noEffects(),
  depth = 0,
): ActionEffects {
  if (depth > MAX_DEPTH || list.length === 0) return into;
  for (const action of list) {
    const named = nameOf(action);
    const impl = named !== undefined && named in actions ? actions[named] : action;
    if (typeof impl !== 'function') continue;
    const label = named !== undefined && named in actions ? `'${named}'` : undefined;
    read(impl as (...args: never[]) => unknown, label, actions, into, depth);
  }
  return into;
}

function read(
  impl: (...args: never[]) => unknown,
  label: string | undefined,
  actions: Named,
  into: ActionEffects,
  depth: number,
) {
  const fields = impl as unknown as Record<string, unknown>;
  const self = selfSink(
    impl,
    { action: label ?? builderLabel(fields.type), name: label?.slice(1, -1) },
    into,
  );
  switch (fields.type) {
    case 'xstate.raise':
      self(fields.delay === undefined ? into.raises : into.sendsSelf, eventOf(fields.event));
      break;
    case 'xstate.sendTo':
      sendTo(fields.to, eventOf(fields.event), self, into);
      break;
    case 'xstate.assign':
      into.assigns = true;
      assignment(fields.assignment, into);
      for (const src of spawnedIn(sourceOf(fields.assignment))) into.spawns.add(src);
      break;
    case 'xstate.spawnChild':
      if (typeof fields.src === 'string') into.spawns.add(fields.src);
      break;
    case 'xstate.enqueueActions': {
      const body = enqueuedEffects(sourceOf(fields.collect));
      into.assigns ||= body.assigns;
      for (const key of body.writes) into.writes.add(key);
      for (const [key, texts] of body.assignedText) {
        into.assignedText.set(key, [...(into.assignedText.get(key) ?? []), ...texts]);
        into.assigned.set(key, [...(into.assigned.get(key) ?? []), ...texts.map(() => COMPUTED)]);
      }
      for (const src of body.spawns) into.spawns.add(src);
      self(into.sendsSelf, body.self);
      addParent(into, body.parent);
      actionEffects(body.named, actions, into, depth + 1);
      break;
    }
    default: {
      if (typeof fields.type === 'string' && fields.type.startsWith('xstate.')) break;
      const source = sourceOf(impl);
      self(into.sendsSelf, sentByCalls(source, SELF_SEND));
      addParent(into, sentByCalls(source, PARENT_SEND));
    }
  }
}

/**
 * Where an action's self-sent events go: traced types into `to`, the rest recorded as untraced
 * (a queue replay, or computed), unless the action is marked `sendsOnly` or `drainsQueue`.
 */
function selfSink(
  impl: unknown,
  named: { action: string; name: string | undefined },
  into: ActionEffects,
) {
  const who = named.name === undefined ? { action: named.action } : named;
  const only = markOf(impl, 'sendsOnly');
  const drains = markOf(impl, 'drainsQueue');
  return (to: Set<string>, sent: SentEvents) => {
    for (const type of sent.types) to.add(type);
    if (sent.untraced.length === 0) return;
    const immediate = to === into.raises;
    if (only) for (const type of only.types) to.add(type);
    else if (drains) into.untraced.push({ ...who, immediate, queue: drains.key, declared: true });
    else
      for (const what of sent.untraced)
        into.untraced.push(
          what.kind === 'queue' ? { ...who, immediate, queue: what.key } : { ...who, immediate },
        );
  };
}

function sendTo(
  to: unknown,
  sent: SentEvents,
  self: (to: Set<string>, sent: SentEvents) => void,
  into: ActionEffects,
): void {
  const target = typeof to === 'string' ? to : sourceOf(to);
  if (target === '#_parent' || /\b_parent\b|\bparent\b/.test(target)) addParent(into, sent);
  else if (typeof to === 'function' && /\bself\b/.test(target)) self(into.sendsSelf, sent);
}

function addParent(into: ActionEffects, sent: SentEvents): void {
  for (const type of sent.types) into.toParent.add(type);
  if (sent.untraced.length > 0) into.toParent.add('*');
}

/** The events an action's `event` field may be: an event object, or a function computing one. */
function eventOf(event: unknown): SentEvents {
  if (typeof event === 'function') return eventsOf(sourceOf(event), []);
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string'
    ? { types: new Set([type]), untraced: [] }
    : { types: new Set(), untraced: [{ kind: 'computed' }] };
}

/** Stands for a value an action computes (never the same reset as another). */
const COMPUTED = () => undefined;

function assignment(assigned: unknown, into: ActionEffects): void {
  if (typeof assigned !== 'object' || assigned === null) {
    into.writes.add('*');
    return;
  }
  for (const [key, value] of Object.entries(assigned)) {
    into.writes.add(key);
    into.assigned.set(key, [...(into.assigned.get(key) ?? []), value]);
    const text = typeof value === 'function' ? sourceOf(value) : safeJson(value);
    into.assignedText.set(key, [...(into.assignedText.get(key) ?? []), text]);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The event types a function's source names as literals (`type: 'tick'`). */
export function eventLiterals(source: string): string[] {
  return [...source.matchAll(/\btype\s*:\s*(['"`])([^'"`$]+)\1/g)].map((m) => m[2] as string);
}

/** The `src` names spawned in a function's source (`spawn('name')`, `spawnChild('name')`). */
export function spawnedIn(source: string): string[] {
  return [...source.matchAll(/\bspawn(?:Child)?\s*\(\s*['"`]([^'"`]+)['"`]/g)].map(
    (m) => m[1] as string,
  );
}

/** A function's source text; `''` for anything else. */
export function sourceOf(value: unknown): string {
  try {
    return typeof value === 'function' ? Function.prototype.toString.call(value) : '';
  } catch {
    return '';
  }
}

function builderLabel(type: unknown): string {
  if (type === 'xstate.raise') return 'raise(…)';
  if (type === 'xstate.sendTo') return 'sendTo(…)';
  if (type === 'xstate.enqueueActions') return 'enqueueActions(…)';
  return 'an inline action';
}

function nameOf(action: unknown): string | undefined {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) {
    const { type } = action as { type: unknown };
    return typeof type === 'string' ? type : undefined;
  }
  return undefined;
}
