import type { RouteFacts } from '../guards/routeFacts.js';
import type { LoopContext } from './loopContext.js';

/** The facts the routing guards read, from a loop's context. */
export function routeFactsOf(context: LoopContext): RouteFacts {
  // a state's branches are checked against one context in a row: build its facts once
  if (context === last.context) return last.facts;
  const { settings, failure } = context;
  const facts: RouteFacts = {
    verdict: context.verdict,
    retryCount: context.retryCount,
    maxRetries: settings.maxRetries,
    attempts: context.attempts,
    maxAttempts: settings.maxAttempts,
    cost: context.cost,
    maxCost: settings.maxCost,
    stallRepeats: context.stall.repeats,
    stallAfter: settings.stall?.after ?? null,
    failure,
    failedIdempotent: failure !== undefined && settings.idempotent[failure.step],
    maxRetryDelayMs: settings.maxRetryDelayMs,
    transientRetried: context.ledger.transientRetried,
  };
  last = { context, facts };
  return facts;
}

let last: { context: LoopContext | undefined; facts: RouteFacts } = {
  context: undefined,
  facts: {} as RouteFacts,
};
