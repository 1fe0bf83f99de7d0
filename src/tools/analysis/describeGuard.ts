import { and, not, or } from 'xstate';
import { isBudgetGuard } from '../../core/decisions/budgetGuard.js';

/** How a transition's guard reads, and whether it bounds the cycles through that transition. */
export interface GuardDescription {
  /** The guard's name, or a rendering such as `and(hasRetriesLeft, not(withinCeiling))`. */
  text: string;
  /** A budget guard, or an `and(...)`/`or(...)` that requires one (never one under `not`). */
  budget: boolean;
}

type Composite = ((...args: never[]) => unknown) & { check: unknown; guards: unknown[] };

// xstate marks its higher-order guards by their `check` function; compare with our own copy's,
// and fall back to the function's name for a machine built by another copy of xstate.
const checkOf = (guard: unknown) => (guard as { check?: unknown }).check;
const CHECKS = {
  and: checkOf(and([])),
  or: checkOf(or([])),
  not: checkOf(not(() => true)),
} as const;

const MAX_DEPTH = 32;

/**
 * Describes a transition guard: named guards are looked up in `guards` (the machine's
 * `implementations.guards`), composites are rendered and searched for a positive budget guard.
 * @example describeGuard('refineWouldPassCeiling', machine.implementations.guards)
 *   // → { text: 'refineWouldPassCeiling', budget: true }
 */
export function describeGuard(
  guard: unknown,
  guards: Readonly<Record<string, unknown>>,
): GuardDescription {
  return { text: render(guard, 0), budget: bounds(guard, guards, 0) };
}

function render(guard: unknown, depth: number): string {
  if (depth > MAX_DEPTH) return '…';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    return String((guard as { type: unknown }).type);
  }
  if (typeof guard !== 'function') return String(guard);
  const kind = compositeKind(guard);
  if (kind === 'stateIn') {
    return `stateIn(${JSON.stringify((guard as { stateValue?: unknown }).stateValue) ?? ''})`;
  }
  if (kind) {
    const parts = (guard as Composite).guards.map((part) => render(part, depth + 1));
    return `${kind}(${parts.join(', ')})`;
  }
  return isInline(guard) ? 'inline guard' : guard.name;
}

// `{ guard: ({ context }) => … }` names the arrow function after the property: `guard`.
const isInline = (fn: { name: string }) =>
  !fn.name || fn.name === 'anonymous' || fn.name === 'guard';

/**
 * The facts a guard requires, as names with `!` for a negation: `and(a, not(b))` → `['a', '!b']`,
 * and a named guard defined as `not('open')` → `['closed', '!open']`. Two guards whose facts
 * contradict (`x` and `!x`) cannot both hold while the context stays the same.
 * @example guardLiterals(not('isOpen'), {}) // ['!isOpen']
 */
export function guardLiterals(guard: unknown, guards: Readonly<Record<string, unknown>>): string[] {
  return literals(guard, guards, 0);
}

function literals(
  guard: unknown,
  guards: Readonly<Record<string, unknown>>,
  depth: number,
): string[] {
  if (depth > MAX_DEPTH) return [];
  const name = nameOf(guard);
  const impl = name === undefined ? guard : guards[name];
  const own = name === undefined ? [] : [name];
  if (typeof impl !== 'function') return own;
  const kind = compositeKind(impl);
  const parts = kind ? (impl as Composite).guards : [];
  if (kind === 'and')
    return [...own, ...parts.flatMap((part) => literals(part, guards, depth + 1))];
  if (kind === 'not' && parts.length === 1) {
    const inner = literals(parts[0], guards, depth + 1);
    return inner.length === 1 ? [...own, negate(inner[0] as string)] : own;
  }
  if (own.length > 0) return own;
  return isInline(impl) || kind ? [] : [render(impl, depth)];
}

/** `x` ↔ `!x`. */
export const negate = (literal: string) =>
  literal.startsWith('!') ? literal.slice(1) : `!${literal}`;

function bounds(guard: unknown, guards: Readonly<Record<string, unknown>>, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const name = nameOf(guard);
  const impl = name === undefined ? guard : guards[name];
  if (isBudgetGuard(impl)) return true;
  if (typeof impl !== 'function') return false;
  const kind = compositeKind(impl);
  const parts = kind ? (impl as Composite).guards : [];
  if (kind === 'and') return parts.some((part) => bounds(part, guards, depth + 1));
  if (kind === 'or') {
    return parts.length > 0 && parts.every((part) => bounds(part, guards, depth + 1));
  }
  return false;
}

function nameOf(guard: unknown): string | undefined {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    return String((guard as { type: unknown }).type);
  }
  return undefined;
}

/** Which of xstate's higher-order guards `fn` is, if any. */
export function compositeKind(fn: object): 'and' | 'or' | 'not' | 'stateIn' | undefined {
  if (!('check' in fn)) return undefined;
  const { check } = fn as { check: unknown };
  if (check === CHECKS.and) return 'and';
  if (check === CHECKS.or) return 'or';
  if (check === CHECKS.not) return 'not';
  if ('stateValue' in fn) return 'stateIn';
  const name = typeof check === 'function' ? check.name : '';
  if (name === 'checkAnd') return 'and';
  if (name === 'checkOr') return 'or';
  if (name === 'checkNot') return 'not';
  return undefined;
}
