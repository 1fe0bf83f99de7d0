import { budgetGuard } from './budgetGuard.js';
import { hasRetriesLeft, isStalled, withinCeiling, withinCostBudget } from './budgetGuards.js';
import {
  hasUnknownEffect,
  isPermanentFailure,
  isPolicyFailure,
  retryDelayTooLong,
} from './failureGuards.js';
import { failedIn, type RouteFacts } from './routeFacts.js';
import { isFundamental, isMalformed, isValid, lacksDiagnostic } from './verdictGuards.js';

type Test = (facts: RouteFacts) => boolean;

const retriesLeft: Test = (f) => hasRetriesLeft(f.retryCount, f.maxRetries);
const ceilingRoom: Test = (f) => withinCeiling(f.attempts, f.maxAttempts);
const costRoom: Test = (f) => withinCostBudget(f.cost, f.maxCost);
const retryLeft: Test = (f) => !f.transientRetried;

/**
 * The guards of the decision table and the failure routes, by name, over plain facts. Those that
 * hold only while a budget has room are marked, so `findUnboundedCycles` sees the bound. The
 * combinations are plain functions: an and()/not() guard costs ~3 µs per evaluation in XState.
 */
export const ROUTE_GUARDS = {
  isMalformed: (f: RouteFacts) => isMalformed(f.verdict),
  isValid: (f: RouteFacts) => isValid(f.verdict),
  isFundamental: (f: RouteFacts) => isFundamental(f.verdict),
  lacksDiagnostic: (f: RouteFacts) => lacksDiagnostic(f.verdict),
  isStalled: (f: RouteFacts) => isStalled(f.stallRepeats, f.stallAfter),
  hasRetriesLeft: budgetGuard(retriesLeft),
  withinCeiling: budgetGuard(ceilingRoom),
  refineWouldPassCeiling: budgetGuard((f: RouteFacts) => retriesLeft(f) && !ceilingRoom(f)),
  refineWouldPassCostBudget: budgetGuard((f: RouteFacts) => retriesLeft(f) && !costRoom(f)),
  withinCeilingButOverBudget: budgetGuard((f: RouteFacts) => ceilingRoom(f) && !costRoom(f)),
  ceilingReached: (f: RouteFacts) => !ceilingRoom(f),
  costBudgetSpent: (f: RouteFacts) => !costRoom(f),

  stoppedByDeadline: (f: RouteFacts) => f.failure?.deadline === true,
  refusedByBudget: (f: RouteFacts) => f.failure?.budget === true,
  isPolicyFailure: (f: RouteFacts) => isPolicyFailure(f.failure),
  isPermanentFailure: (f: RouteFacts) => isPermanentFailure(f.failure),
  hasUnknownEffect: (f: RouteFacts) => hasUnknownEffect(f.failure, f.failedIdempotent),
  retryDelayTooLong: (f: RouteFacts) => retryDelayTooLong(f.failure, f.maxRetryDelayMs),
  failedInAttempt: (f: RouteFacts) => failedIn(f, 'attempt'),
  failedInRefine: (f: RouteFacts) => failedIn(f, 'refine'),
  failedInFallback: (f: RouteFacts) => failedIn(f, 'fallback'),
  transientRetryAllowed: budgetGuard(retryLeft),
  retryWouldPassCeiling: budgetGuard(
    (f: RouteFacts) => failedIn(f, 'attempt') && retryLeft(f) && !ceilingRoom(f),
  ),
  retryWouldPassCostBudget: budgetGuard((f: RouteFacts) => retryLeft(f) && !costRoom(f)),
} satisfies Record<string, Test>;

/** The name of a guard of the decision table or the failure routes. */
export type RouteGuard = keyof typeof ROUTE_GUARDS;
