import { budgetGuard, isBudgetGuard } from '../decisions/budgetGuard.js';
import type { RouteFacts } from '../decisions/routeFacts.js';
import { ROUTE_GUARDS, type RouteGuard } from '../decisions/routeGuards.js';
import { isMalformed, isValid } from '../decisions/verdictGuards.js';
import {
  isClarificationRequest,
  isEmptyResult,
  readStepResult,
} from '../vocabulary/stepResults.js';
import { ContextFacts } from './ContextFacts.js';
import type { LoopContext } from './loopContext.js';
import { verdictOf } from './loopUpdates.js';

interface Args {
  context: LoopContext;
  event: { type: string };
}

function onContext(test: (facts: RouteFacts) => boolean) {
  const guard = ({ context }: Args) => test(new ContextFacts(context));
  return isBudgetGuard(test) ? budgetGuard(guard) : guard;
}

const routeGuards = Object.fromEntries(
  Object.entries(ROUTE_GUARDS).map(([name, test]) => [name, onContext(test)]),
) as Record<RouteGuard, (args: Args) => boolean>;

const outputOf = (event: { type: string }) => (event as { output?: unknown }).output;

/**
 * The loop machine's guards, by name: the decision table's and the failure routes' (plain
 * predicates in core/decisions, read through one adapter), and those that read a step's output.
 */
export const loopGuards = {
  ...routeGuards,
  isEmptyResult: ({ event }: Args) => isEmptyResult(readStepResult(outputOf(event)).value),
  isClarificationRequest: ({ event }: Args) =>
    isClarificationRequest(readStepResult(outputOf(event)).value),
  reviewBeforeProceed: ({ event }: Args) => isValid(verdictOf(outputOf(event))),
  reviewAfterFailedValidation: ({ event }: Args) => {
    const verdict = verdictOf(outputOf(event));
    return !isValid(verdict) && !isMalformed(verdict);
  },
  modifiesCandidate: ({ event }: Args) => 'candidate' in event,

  retryWaitHitDeadline: ({ event }: Args) =>
    (outputOf(event) as { deadline?: boolean } | undefined)?.deadline === true,
};
