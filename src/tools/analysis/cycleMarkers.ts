// Markers: one line in a machine's setup that tells the termination check what it cannot read
// from the code. Each returns a marked copy, so the value passed in stays unmarked elsewhere.

const MARKS = Symbol.for('loopchart.cycleMarks');

/** What a marker states about an actor logic or an action. */
export type CycleMark =
  | { kind: 'gatedBy'; who: string }
  | { kind: 'sendsOnly'; types: readonly string[] }
  | { kind: 'drainsQueue'; key: string };

/**
 * Marks an actor logic whose events and completion wait for `who` (a person, a device, an outside
 * service): a cycle set off by it waits for `who` on each lap, so it is bounded, not unbounded.
 * @example actors: { confirmOnDevice: gatedBy('user', fromObservable(() => device.confirm())) }
 */
export function gatedBy<T extends object>(who: string, logic: T): T {
  if (typeof who !== 'string' || who.trim() === '')
    throw new TypeError(`gatedBy: who must be a non-empty string, got ${JSON.stringify(who)}`);
  return marked('gatedBy', logic, { kind: 'gatedBy', who });
}

/**
 * Declares the only event types an actor logic sends its parent, or an action (`raise`,
 * `sendTo`, `enqueueActions`) sends the machine, where the code computes them.
 * @example entry: sendsOnly(['SAVE', 'CLOSE'], raise(({ context }) => context.next))
 */
export function sendsOnly<T extends object>(types: readonly string[], target: T): T {
  if (!Array.isArray(types) || !types.every((type) => typeof type === 'string' && type !== ''))
    throw new TypeError(
      `sendsOnly: types must be an array of event type strings, got ${JSON.stringify(types)}`,
    );
  return marked('sendsOnly', target, { kind: 'sendsOnly', types: [...types] });
}

/**
 * Declares that an action replays the head of the context array `key` and removes it, and that
 * only events from outside add to it: a cycle the replay drives is bounded by the queue.
 * @example entry: drainsQueue('pending', enqueueActions(({ context, enqueue }) => { … }))
 */
export function drainsQueue<T extends object>(key: string, action: T): T {
  if (typeof key !== 'string' || key.trim() === '')
    throw new TypeError(`drainsQueue: key must be a context key, got ${JSON.stringify(key)}`);
  return marked('drainsQueue', action, { kind: 'drainsQueue', key });
}

/**
 * The markers on an actor logic or an action.
 * @example cycleMarksOf(gatedBy('user', keys)) // [{ kind: 'gatedBy', who: 'user' }]
 */
export function cycleMarksOf(value: unknown): readonly CycleMark[] {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return [];
  return ((value as Record<symbol, unknown>)[MARKS] as CycleMark[] | undefined) ?? [];
}

/** The first marker of `kind` on `value`, if any. */
export function markOf<K extends CycleMark['kind']>(
  value: unknown,
  kind: K,
): Extract<CycleMark, { kind: K }> | undefined {
  return cycleMarksOf(value).find((mark) => mark.kind === kind) as
    | Extract<CycleMark, { kind: K }>
    | undefined;
}

// A function (an action) is copied into a wrapper carrying its properties; an object (an actor
// logic, a machine) into an object that inherits from it, so xstate reads it as before.
function marked<T extends object>(name: string, target: T, mark: CycleMark): T {
  if ((typeof target !== 'object' && typeof target !== 'function') || target === null)
    throw new TypeError(`${name}: expected an actor logic or an action, got ${String(target)}`);
  let copy: T;
  if (typeof target === 'function') {
    const fn = target as unknown as (...args: unknown[]) => unknown;
    const wrapper = function (this: unknown, ...args: unknown[]) {
      return fn.apply(this, args);
    };
    Object.defineProperty(wrapper, 'name', { value: fn.name });
    copy = Object.assign(wrapper, fn) as unknown as T;
  } else copy = Object.create(target) as T;
  Object.defineProperty(copy, MARKS, { value: [...cycleMarksOf(target), mark] });
  return copy;
}
