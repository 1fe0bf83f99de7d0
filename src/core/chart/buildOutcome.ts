import { failureCause } from '../vocabulary/failures.js';
import type { LoopError, LoopOutcome } from '../vocabulary/outcome.js';
import type { LoopStatus, StopStatus } from '../vocabulary/statuses.js';
import { explain } from './explain.js';
import { type LoopContext, STEP_STATE } from './loopContext.js';

/** The `LoopOutcome` of a loop that reached the final state `status`. */
export function buildOutcome(status: LoopStatus, context: LoopContext): LoopOutcome {
  const common = {
    iterations: context.retryCount,
    attempts: context.attempts,
    cost: context.cost,
    rationale: lastRationale(context) ?? explain(status, context),
    trace: context.trace,
  };
  switch (status) {
    case 'proceed':
      return { status, ok: true, ...common, candidate: context.candidate };
    case 'fallback':
      return {
        status,
        ok: true,
        ...common,
        candidate: context.ledger.fallbackCandidate,
        partial: context.candidate,
      };
    case 'empty':
      return { status, ok: true, ...common, empty: context.ledger.empty ?? { reason: '' } };
    default:
      return {
        status,
        ok: false,
        ...common,
        partial: context.candidate,
        error: loopError(status, context, common.rationale),
      } as LoopOutcome;
  }
}

function lastRationale(context: LoopContext): string | undefined {
  const last = context.trace.at(-1);
  return last?.decision ? last.rationale : undefined;
}

function loopError(kind: StopStatus, context: LoopContext, message: string): LoopError {
  const { settings, failure } = context;
  const error: LoopError = {
    kind,
    state: context.phase,
    attempts: context.attempts,
    message,
  };
  if (context.candidate !== undefined) error.lastOutput = context.candidate;
  const cap = capOf(kind);
  if (cap !== undefined) error.cap = cap;
  const hit = context.ledger.deadlineHit;
  if (kind === 'ceiling_stop' && hit) {
    error.cap = 'deadlineMs';
    error.inFlight = hit.inFlight;
    // a step cut off mid-flight may have acted; a validator only checks, unless declared otherwise
    error.mayHaveActed =
      hit.inFlight !== null && !(hit.inFlight === 'validate' && settings.idempotent.validate);
  }
  if (kind === 'stalled' && context.stall.fingerprint)
    error.fingerprint = context.stall.fingerprint;
  if (failure && context.phase === 'failed') {
    error.state = STEP_STATE[failure.step];
    error.cause = failureCause(failure);
  }
  return error;

  function capOf(status: StopStatus): number | undefined {
    if (status === 'iteration_exhausted') return settings.maxRetries;
    if (status === 'ceiling_stop') return settings.maxAttempts;
    if (status === 'budget_stop') return settings.maxCost ?? undefined;
    if (status === 'stalled') return settings.stall?.after;
    return undefined;
  }
}
