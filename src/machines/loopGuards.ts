import { and, not } from 'xstate';
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
  hasRetriesLeft: budgetGuard(({ context }: Args) =>
    hasRetriesLeft(context.retryCount, context.settings.maxRetries),
  ),
  withinCeiling: budgetGuard(({ context }: Args) =>
    withinCeiling(context.attempts, context.settings.maxAttempts),
  ),
  withinCostBudget: budgetGuard(({ context }: Args) =>
    withinCostBudget(context.cost, context.settings.maxCost),
  ),
  transientRetryAllowed: budgetGuard(({ context }: Args) => !context.ledger.transientRetried),

  refineWouldPassCeiling: and(['hasRetriesLeft', not('withinCeiling')]),
  refineWouldPassCostBudget: and(['hasRetriesLeft', not('withinCostBudget')]),
  withinCeilingButOverBudget: and(['withinCeiling', not('withinCostBudget')]),
  ceilingReached: not('withinCeiling'),
  costBudgetSpent: not('withinCostBudget'),

  isEmptyResult: ({ event }: Args) => isEmptyResult(readStepResult(outputOf(event)).value),
  isClarificationRequest: ({ event }: Args) =>
    isClarificationRequest(readStepResult(outputOf(event)).value),
  reviewBeforeProceed: ({ event }: Args) => isValid(verdictOf(outputOf(event))),
  reviewAfterFailedValidation: ({ event }: Args) => {
    const verdict = verdictOf(outputOf(event));
    return !isValid(verdict) && !isMalformed(verdict);
  },
  modifiesCandidate: ({ event }: Args) => 'candidate' in event,

  isPolicyFailure: ({ context }: Args) => isPolicyFailure(context.failure),
  isPermanentFailure: ({ context }: Args) => isPermanentFailure(context.failure),
  hasUnknownEffect: (args: Args) => hasUnknownEffect(args.context.failure, idempotentStep(args)),
  retryDelayTooLong: ({ context }: Args) =>
    retryDelayTooLong(context.failure, context.settings.maxRetryDelayMs),
  failedInAttempt: ({ context }: Args) => failedIn(context, 'attempt'),
  failedInValidate: ({ context }: Args) => failedIn(context, 'validate'),
  failedInRefine: ({ context }: Args) => failedIn(context, 'refine'),
  failedInFallback: ({ context }: Args) => failedIn(context, 'fallback'),
  retryWouldPassCeiling: and(['failedInAttempt', 'transientRetryAllowed', not('withinCeiling')]),
  retryWouldPassCostBudget: and(['transientRetryAllowed', not('withinCostBudget')]),
};
