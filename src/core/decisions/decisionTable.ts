import type { Decision } from '../vocabulary/statuses.js';
import type { RouteGuard } from './routeGuards.js';

/** A fact about a config's chart that decides whether a row can be taken at all. */
export type ShapeFact =
  | 'canReattempt'
  | 'canRefine'
  | 'canExhaust'
  | 'canFallBack'
  | 'canStall'
  | 'hasBudget'
  | 'hasNonIdempotentStep'
  | 'hasDeadline'
  | 'reviewsBeforeProceed'
  | 'reviewsAfterFailedValidation';

/** The key of the sentence that explains a row (see `rationales.ts`). */
export type Because =
  | 'malformed'
  | 'proceed'
  | 'fundamental'
  | 'noDiagnostic'
  | 'stalled'
  | 'ceiling_stop'
  | 'budget_stop'
  | 'refine'
  | 'fallback'
  | 'iteration_exhausted'
  | 'policy_stop'
  | 'unknown_outcome'
  | 'permanent_failure'
  | 'retry_exhausted'
  | 'retry';

/** A branch of the chart: taken when its guard holds (or it has none) and no branch above was. */
export interface Row {
  guard?: string;
  target: string;
  actions?: unknown;
  /** The branch exists only in charts whose shape has these facts (true) or lacks them (false). */
  when?: Partial<Record<ShapeFact, boolean>>;
}

/** One row of the decision table or the failure routes. */
export interface RouteRow extends Row {
  guard?: RouteGuard;
  because: Because;
  /** For the README's table of the pure router: the validation result and the budget it reads. */
  result?: string;
  budget?: string;
}

/** The action that writes a decision to the trace. */
export const decide = <D extends string>(decision: D) =>
  ({ type: 'recordDecision', params: { decision } }) as const;

/**
 * The decision table (SPEC §1): the `routing` state's eventless branches, in order. Every chart
 * ends in one unguarded row, so the state is always left. When `maxAttempts ≤ maxRetries` the
 * ceiling, not the retry budget, ends the refining (`canExhaust` false).
 */
export const VERDICT_ROWS = [
  {
    guard: 'isMalformed',
    target: 'terminate_with_partial',
    because: 'malformed',
    result: 'malformed (not a validation result)',
    budget: 'any',
  },
  { guard: 'isValid', target: 'proceed', because: 'proceed', result: 'valid', budget: 'any' },
  {
    guard: 'isFundamental',
    target: 'terminate_with_partial',
    because: 'fundamental',
    result: 'invalid, error `fundamental`',
    budget: 'any',
  },
  {
    guard: 'lacksDiagnostic',
    target: 'terminate_with_partial',
    because: 'noDiagnostic',
    result: 'invalid, no error diagnostic',
    budget: 'any',
  },
  { guard: 'isStalled', target: 'stalled', when: { canStall: true }, because: 'stalled' },
  {
    guard: 'refineWouldPassCeiling',
    target: 'ceiling_stop',
    when: { canRefine: true, canExhaust: true },
    because: 'ceiling_stop',
  },
  {
    guard: 'refineWouldPassCostBudget',
    target: 'budget_stop',
    when: { canRefine: true, canExhaust: true, hasBudget: true },
    because: 'budget_stop',
  },
  {
    guard: 'hasRetriesLeft',
    target: 'refining',
    actions: 'countRetry',
    when: { canRefine: true, canExhaust: true },
    because: 'refine',
    result: 'invalid, error `correctable`',
    budget: '`retryCount < maxRetries`',
  },
  {
    guard: 'withinCeilingButOverBudget',
    target: 'budget_stop',
    when: { canRefine: true, canExhaust: false, hasBudget: true },
    because: 'budget_stop',
  },
  {
    guard: 'withinCeiling',
    target: 'refining',
    actions: 'countRetry',
    when: { canRefine: true, canExhaust: false },
    because: 'refine',
  },
  { target: 'ceiling_stop', when: { canExhaust: false }, because: 'ceiling_stop' },
  {
    guard: 'costBudgetSpent',
    target: 'budget_stop',
    when: { canFallBack: true, hasBudget: true },
    because: 'budget_stop',
  },
  {
    target: 'fallingBack',
    actions: decide('fallback'),
    when: { canFallBack: true },
    because: 'fallback',
    result: 'invalid, error `correctable`',
    budget: '`retryCount >= maxRetries`',
  },
  {
    target: 'iteration_exhausted',
    when: { canExhaust: true, canFallBack: false },
    because: 'iteration_exhausted',
  },
] as const satisfies readonly RouteRow[];

/** Where a failed step goes (SPEC §2), in order; every chart ends in one unguarded row. */
export const FAILURE_ROWS = [
  {
    guard: 'refusedByBudget',
    target: 'budget_stop',
    actions: 'uncountRefusedStep',
    when: { hasBudget: true },
    because: 'budget_stop',
  },
  {
    guard: 'stoppedByDeadline',
    target: 'ceiling_stop',
    actions: 'recordDeadline',
    when: { hasDeadline: true },
    because: 'ceiling_stop',
  },
  { guard: 'isPolicyFailure', target: 'policy_stop', because: 'policy_stop' },
  {
    guard: 'hasUnknownEffect',
    target: 'unknown_outcome',
    when: { hasNonIdempotentStep: true },
    because: 'unknown_outcome',
  },
  {
    guard: 'failedInFallback',
    target: 'iteration_exhausted',
    when: { canFallBack: true },
    because: 'iteration_exhausted',
  },
  { guard: 'isPermanentFailure', target: 'permanent_failure', because: 'permanent_failure' },
  { guard: 'retryDelayTooLong', target: 'retry_exhausted', because: 'retry_exhausted' },
  { guard: 'retryWouldPassCeiling', target: 'ceiling_stop', because: 'ceiling_stop' },
  {
    guard: 'retryWouldPassCostBudget',
    target: 'budget_stop',
    when: { hasBudget: true },
    because: 'budget_stop',
  },
  {
    guard: 'transientRetryAllowed',
    target: 'waitingToRetry',
    actions: 'scheduleRetry',
    because: 'retry',
  },
  { target: 'retry_exhausted', because: 'retry_exhausted' },
] as const satisfies readonly RouteRow[];

const ROUTER_DECISIONS: Readonly<Record<string, Decision>> = {
  proceed: 'proceed',
  terminate_with_partial: 'terminate_with_partial',
  refining: 'refine',
  fallingBack: 'fallback',
};

/** The decision the pure router returns when it takes `row` (one of the rows with a `result`). */
export function routerDecision(row: RouteRow): Decision {
  const decision = ROUTER_DECISIONS[row.target];
  if (decision === undefined) throw new Error(`loopchart: no router decision for '${row.target}'`);
  return decision;
}

/** The facts of a chart's shape that rows ask about. */
export type Shape = Record<ShapeFact, boolean>;

type Transition<R> = R extends Row
  ? Pick<R, Extract<keyof R, 'guard' | 'target' | 'actions'>>
  : never;

/** True when a chart of `shape` holds `row`. */
export function holdsRow(row: Row, shape: Shape): boolean {
  const when = row.when ?? {};
  return (Object.keys(when) as ShapeFact[]).every((fact) => shape[fact] === when[fact]);
}

/**
 * The rows a chart of `shape` holds, as XState transitions (guard, target, actions), in order.
 * @example createMachine({ states: { routing: { always: reachable(VERDICT_ROWS, shape) } } })
 */
export function reachable<R extends Row>(rows: readonly R[], shape: Shape): Transition<R>[] {
  return rows
    .filter((row) => holdsRow(row, shape))
    .map(({ guard, target, actions }) => ({
      ...(guard === undefined ? {} : { guard }),
      target,
      ...(actions === undefined ? {} : { actions }),
    })) as Transition<R>[];
}
