import type { TraceDecision } from '../statuses.js';
import { type LoopShape, when } from './loopShape.js';

/** The action that writes a decision to the trace. */
export const decide = (decision: TraceDecision) =>
  ({ type: 'recordDecision', params: { decision } }) as const;

/**
 * The decision table of SPEC §1 as the `routing` state's eventless branches, in order, holding only
 * those the config can reach; the last one is unguarded, so the state is always left.
 */
export function verdictRoutes(shape: LoopShape) {
  return [
    { guard: 'isMalformed', target: 'terminate_with_partial' },
    { guard: 'isValid', target: 'proceed' },
    { guard: 'isFundamental', target: 'terminate_with_partial' },
    { guard: 'lacksDiagnostic', target: 'terminate_with_partial' },
    ...when(shape.canStall, { guard: 'isStalled' as const, target: 'stalled' as const }),
    ...when(
      shape.canRefine && shape.canExhaust,
      { guard: 'refineWouldPassCeiling' as const, target: 'ceiling_stop' as const },
      ...when(shape.hasBudget, {
        guard: 'refineWouldPassCostBudget' as const,
        target: 'budget_stop' as const,
      }),
      {
        guard: 'hasRetriesLeft' as const,
        target: 'refining' as const,
        actions: 'countRetry' as const,
      },
    ),
    // when maxAttempts ≤ maxRetries the ceiling, not the retry budget, ends the refining
    ...when(
      shape.canRefine && !shape.canExhaust,
      ...when(shape.hasBudget, {
        guard: 'withinCeilingButOverBudget' as const,
        target: 'budget_stop' as const,
      }),
      {
        guard: 'withinCeiling' as const,
        target: 'refining' as const,
        actions: 'countRetry' as const,
      },
    ),
    ...when(!shape.canExhaust, { target: 'ceiling_stop' as const }),
    ...when(
      shape.canFallBack,
      ...when(shape.hasBudget, {
        guard: 'costBudgetSpent' as const,
        target: 'budget_stop' as const,
      }),
      { target: 'fallingBack' as const, actions: decide('fallback') },
    ),
    ...when(shape.canExhaust && !shape.canFallBack, {
      target: 'iteration_exhausted' as const,
    }),
  ] as const;
}

/** Where a failed step goes (SPEC §2), in order; the last branch is unguarded. */
export function failureRoutes(shape: LoopShape) {
  return [
    { guard: 'stoppedByDeadline', target: 'ceiling_stop', actions: 'recordDeadline' },
    { guard: 'isPolicyFailure', target: 'policy_stop' },
    ...when(shape.hasNonIdempotentStep, {
      guard: 'hasUnknownEffect' as const,
      target: 'unknown_outcome' as const,
    }),
    ...when(shape.canFallBack, {
      guard: 'failedInFallback' as const,
      target: 'iteration_exhausted' as const,
    }),
    { guard: 'isPermanentFailure', target: 'permanent_failure' },
    { guard: 'retryDelayTooLong', target: 'retry_exhausted' },
    { guard: 'retryWouldPassCeiling', target: 'ceiling_stop' },
    ...when(shape.hasBudget, {
      guard: 'retryWouldPassCostBudget' as const,
      target: 'budget_stop' as const,
    }),
    { guard: 'transientRetryAllowed', target: 'waitingToRetry', actions: 'scheduleRetry' },
    { target: 'retry_exhausted' },
  ] as const;
}
