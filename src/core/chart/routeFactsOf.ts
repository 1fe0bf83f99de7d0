import type { RouteFacts } from '../decisions/routeFacts.js';
import type { LoopContext } from './loopContext.js';

/** The facts the routing guards read, from a loop's context. */
export function routeFactsOf(context: LoopContext): RouteFacts {
  const { settings, failure } = context;
  return {
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
}
