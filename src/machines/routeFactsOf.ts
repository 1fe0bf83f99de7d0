import type { RouteFacts } from '../guards/routeFacts.js';
import type { LoopContext } from './loopContext.js';

// A state's branches are checked against one context in a row: its facts are built once. Keyed
// weakly, so a finished run's context (its input, candidates, errors) is not kept for the next one.
const factsOf = new WeakMap<LoopContext, RouteFacts>();

/** The facts the routing guards read, from a loop's context. */
export function routeFactsOf(context: LoopContext): RouteFacts {
  const known = factsOf.get(context);
  if (known) return known;
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
  factsOf.set(context, facts);
  return facts;
}
