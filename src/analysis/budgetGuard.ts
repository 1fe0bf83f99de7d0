const BUDGET_GUARD = Symbol.for('loopchart.budgetGuard');

/**
 * Marks a guard as a budget guard: a cycle that passes through a transition it guards is bounded.
 * Use it only on guards that really cap the cycle (a counter checked against a maximum).
 * @example guards: { underCap: budgetGuard(({ context }) => context.tries < 5) }
 */
export function budgetGuard<G extends (...args: never[]) => boolean>(guard: G): G {
  Object.defineProperty(guard, BUDGET_GUARD, { value: true });
  return guard;
}

/** True for a guard marked with `budgetGuard`. */
export function isBudgetGuard(guard: unknown): boolean {
  return typeof guard === 'function' && BUDGET_GUARD in guard;
}
