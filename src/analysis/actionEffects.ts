/** What a list of actions can do to the machine running them, read without running them. */
export interface ActionEffects {
  /** Event types raised at once (`raise` without a delay): handled in the state the transition reaches. */
  raises: Set<string>;
  /** Event types sent to the machine itself later (a delayed `raise`, `sendTo(self)`, `enqueueActions`). */
  sendsSelf: Set<string>;
  /** Some event sent to itself could not be named: treat every event as one the machine may send. */
  sendsAny: boolean;
  /** Event types sent to the parent (`sendParent`, `sendTo` the parent); `'*'` when one is dynamic. */
  toParent: Set<string>;
  /** Context may change (`assign`, `enqueueActions`). */
  assigns: boolean;
  /** The context keys written, when every write names its keys (`assign({ n: … })`); `'*'` otherwise. */
  writes: Set<string>;
  /** What each key `writes` names is assigned, in order: a value, or a function that computes one. */
  assigned: Map<string, unknown[]>;
  /** The `src` names of actors spawned (`spawnChild`, `spawn('name')` inside `assign`). */
  spawns: Set<string>;
}

type Named = Readonly<Record<string, unknown>>;

/** An empty `ActionEffects`. */
export function noEffects(): ActionEffects {
  return {
    raises: new Set(),
    sendsSelf: new Set(),
    sendsAny: false,
    toParent: new Set(),
    assigns: false,
    writes: new Set(),
    assigned: new Map(),
    spawns: new Set(),
  };
}

const MAX_DEPTH = 16;
// What an empty action list does: shared, never written to (an empty list returns before writing).
const NONE = noEffects();

/**
 * Reads xstate's built-in action objects (named ones looked up in `actions`, the machine's
 * `implementations.actions`); an `enqueueActions` body is read from its source text.
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
    const fields = impl as unknown as Record<string, unknown>;
    switch (fields.type) {
      case 'xstate.raise':
        addEvent(fields.delay === undefined ? into.raises : into.sendsSelf, fields.event, into);
        break;
      case 'xstate.sendTo':
        sendTo(fields.to, fields.event, into);
        break;
      case 'xstate.assign':
        into.assigns = true;
        assignment(fields.assignment, into);
        for (const src of spawnedIn(sourceOf(fields.assignment))) into.spawns.add(src);
        break;
      case 'xstate.spawnChild':
        if (typeof fields.src === 'string') into.spawns.add(fields.src);
        break;
      case 'xstate.enqueueActions':
        enqueued(sourceOf(fields.collect), actions, into, depth);
        break;
    }
  }
  return into;
}

function sendTo(to: unknown, event: unknown, into: ActionEffects): void {
  const target = typeof to === 'string' ? to : sourceOf(to);
  if (target === '#_parent' || /\b_parent\b|\bparent\b/.test(target)) {
    const types =
      typeof event === 'object' && event ? [typeOf(event)] : eventLiterals(sourceOf(event));
    if (types.length === 0 || types.includes(undefined)) into.toParent.add('*');
    for (const type of types) if (type) into.toParent.add(type);
  } else if (typeof to === 'function' && /\bself\b/.test(target)) {
    addEvent(into.sendsSelf, event, into);
  }
}

function addEvent(to: Set<string>, event: unknown, into: ActionEffects): void {
  const type = typeof event === 'object' && event !== null ? typeOf(event) : undefined;
  const types = type ? [type] : eventLiterals(sourceOf(event));
  if (types.length === 0) into.sendsAny = true;
  for (const t of types) to.add(t);
}

function enqueued(body: string, actions: Named, into: ActionEffects, depth: number): void {
  into.assigns = true;
  into.writes.add('*');
  const types = eventLiterals(body);
  if (/\braise\s*\(|\bsendTo\s*\([^,]*\bself\b/.test(body)) {
    if (types.length === 0) into.sendsAny = true;
    for (const type of types) into.sendsSelf.add(type);
  }
  if (/\bsendParent\s*\(/.test(body)) {
    if (types.length === 0) into.toParent.add('*');
    for (const type of types) into.toParent.add(type);
  }
  for (const src of spawnedIn(body)) into.spawns.add(src);
  const calls = [...body.matchAll(/\benqueue\s*\(\s*['"`]([^'"`]+)['"`]/g)].map(
    (m) => m[1] as string,
  );
  actionEffects(calls, actions, into, depth + 1);
}

function assignment(assigned: unknown, into: ActionEffects): void {
  if (typeof assigned !== 'object' || assigned === null) {
    into.writes.add('*');
    return;
  }
  for (const [key, value] of Object.entries(assigned)) {
    into.writes.add(key);
    const values = into.assigned.get(key) ?? [];
    values.push(value);
    into.assigned.set(key, values);
  }
}

/** The event types a function's source names as literals (`type: 'tick'`). */
export function eventLiterals(source: string): string[] {
  return [...source.matchAll(/\btype\s*:\s*(['"`])([^'"`$]+)\1/g)].map((m) => m[2] as string);
}

function spawnedIn(source: string): string[] {
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

function typeOf(event: object): string | undefined {
  const { type } = event as { type?: unknown };
  return typeof type === 'string' ? type : undefined;
}

function nameOf(action: unknown): string | undefined {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) {
    const { type } = action as { type: unknown };
    return typeof type === 'string' ? type : undefined;
  }
  return undefined;
}
