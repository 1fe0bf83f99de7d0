const BUDGET_GUARD = Symbol.for('loopchart.budgetGuard');

/**
 * Marks a guard as a budget guard: a cycle that passes through a transition it guards is bounded.
 * Use it only on guards that really cap the cycle (a counter checked against a maximum). It returns
 * a marked copy, so the function you pass stays unmarked wherever else you use it (an xstate
 * `and`/`or`/`not` composite is marked in place: xstate reads its parts, not its body).
 * @example guards: { underCap: budgetGuard(({ context }) => context.tries < 5) }
 */
export function budgetGuard<G extends (...args: never[]) => boolean>(guard: G): G {
  const call = guard as unknown as (args: unknown, params: unknown) => boolean;
  const marked =
    'check' in guard
      ? guard
      : (Object.defineProperty(
          // XState calls a guard with (args, params); a rest parameter would allocate an array per call
          (args: unknown, params: unknown) => call(args, params),
          'name',
          { value: guard.name },
        ) as unknown as G);
  Object.defineProperty(marked, BUDGET_GUARD, { value: true });
  return marked;
}

/** True for a guard marked with `budgetGuard`. */
export function isBudgetGuard(guard: unknown): boolean {
  return typeof guard === 'function' && BUDGET_GUARD in guard;
}
