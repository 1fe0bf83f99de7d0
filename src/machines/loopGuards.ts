import { budgetGuard } from '../analysis/budgetGuard.js';
import {
  hasRetriesLeft,
  isStalled,
  withinCeiling,
  withinCostBudget,
} from '../guards/budgetGuards.js';
import {
  hasUnknownEffect,
  isPermanentFailure,
  isPolicyFailure,
  retryDelayTooLong,
} from '../guards/failureGuards.js';
import { isFundamental, isMalformed, isValid, lacksDiagnostic } from '../guards/verdictGuards.js';
import { isClarificationRequest, isEmptyResult, readStepResult } from '../stepResults.js';
import type { LoopContext } from './loopContext.js';
import { failedIn, verdictOf } from './loopUpdates.js';

interface Args {
  context: LoopContext;
  event: { type: string };
}

const outputOf = (event: { type: string }) => (event as { output?: unknown }).output;
const idempotentStep = ({ context }: Args) =>
  context.failure !== undefined && context.settings.idempotent[context.failure.step];

function retriesLeft({ context }: Args): boolean {
  return hasRetriesLeft(context.retryCount, context.settings.maxRetries);
}
function ceilingRoom({ context }: Args): boolean {
  return withinCeiling(context.attempts, context.settings.maxAttempts);
}
function costRoom({ context }: Args): boolean {
  return withinCostBudget(context.cost, context.settings.maxCost);
}
function retryLeft({ context }: Args): boolean {
  return !context.ledger.transientRetried;
}

/**
 * The loop machine's guards, by name: each a one-line adapter from XState's arguments to a pure
 * predicate in src/guards. Budget guards are marked so `findUnboundedCycles` can see the bound.
 */
export const loopGuards = {
  isMalformed: ({ context }: Args) => isMalformed(context.verdict),
  isValid: ({ context }: Args) => isValid(context.verdict),
  isFundamental: ({ context }: Args) => isFundamental(context.verdict),
  lacksDiagnostic: ({ context }: Args) => lacksDiagnostic(context.verdict),
  isStalled: ({ context }: Args) =>
    isStalled(context.stall.repeats, context.settings.stall?.after ?? null),
  hasRetriesLeft: budgetGuard(retriesLeft),
  withinCeiling: budgetGuard(ceilingRoom),
  withinCostBudget: budgetGuard(costRoom),
  transientRetryAllowed: budgetGuard(retryLeft),

  // Combinations are plain functions over the same predicates: an and()/not() guard costs ~3 µs
  // per evaluation. Those that require a budget predicate to hold are budget guards themselves.
  refineWouldPassCeiling: budgetGuard((args: Args) => retriesLeft(args) && !ceilingRoom(args)),
  refineWouldPassCostBudget: budgetGuard((args: Args) => retriesLeft(args) && !costRoom(args)),
  withinCeilingButOverBudget: budgetGuard((args: Args) => ceilingRoom(args) && !costRoom(args)),
  ceilingReached: (args: Args) => !ceilingRoom(args),
  costBudgetSpent: (args: Args) => !costRoom(args),

  isEmptyResult: ({ event }: Args) => isEmptyResult(readStepResult(outputOf(event)).value),
  isClarificationRequest: ({ event }: Args) =>
    isClarificationRequest(readStepResult(outputOf(event)).value),
  reviewBeforeProceed: ({ event }: Args) => isValid(verdictOf(outputOf(event))),
  reviewAfterFailedValidation: ({ event }: Args) => {
    const verdict = verdictOf(outputOf(event));
    return !isValid(verdict) && !isMalformed(verdict);
  },
  modifiesCandidate: ({ event }: Args) => 'candidate' in event,

  stoppedByDeadline: ({ context }: Args) => context.failure?.deadline === true,
  retryWaitHitDeadline: ({ event }: Args) =>
    (outputOf(event) as { deadline?: boolean } | undefined)?.deadline === true,
  isPolicyFailure: ({ context }: Args) => isPolicyFailure(context.failure),
  isPermanentFailure: ({ context }: Args) => isPermanentFailure(context.failure),
  hasUnknownEffect: (args: Args) => hasUnknownEffect(args.context.failure, idempotentStep(args)),
  retryDelayTooLong: ({ context }: Args) =>
    retryDelayTooLong(context.failure, context.settings.maxRetryDelayMs),
  failedInAttempt: ({ context }: Args) => failedIn(context, 'attempt'),
  failedInValidate: ({ context }: Args) => failedIn(context, 'validate'),
  failedInRefine: ({ context }: Args) => failedIn(context, 'refine'),
  failedInFallback: ({ context }: Args) => failedIn(context, 'fallback'),
  retryWouldPassCeiling: budgetGuard(
    (args: Args) => failedIn(args.context, 'attempt') && retryLeft(args) && !ceilingRoom(args),
  ),
  retryWouldPassCostBudget: budgetGuard((args: Args) => retryLeft(args) && !costRoom(args)),
};
