import { describeValue } from '../describeValue.js';
import type { TraceDecision } from '../statuses.js';
import type { LoopContext } from './loopContext.js';

const quote = (text: string | undefined) => describeValue(text ?? '', 160);

/** One human sentence saying why the loop took `decision`, from what its context holds. */
export function explain(decision: TraceDecision, context: LoopContext): string {
  const { settings, failure, verdict, retryCount } = context;
  const verdictError = verdict && 'error' in verdict ? verdict.error : undefined;
  const failed = failure
    ? `${failure.step} ${failureVerb(failure.kind)}: ${quote(failure.message)}`
    : '';
  switch (decision) {
    case 'proceed':
      return retryCount === 0
        ? 'The validator accepted the first candidate.'
        : `The validator accepted the candidate after ${retryCount} refine cycle${retryCount === 1 ? '' : 's'}.`;
    case 'refine':
      return `The error is correctable (${quote(verdictError?.message)}) and ${settings.maxRetries - retryCount} of ${settings.maxRetries} retries are left, so the loop refines.`;
    case 'fallback':
      return `Correctable errors spent all ${settings.maxRetries} retries, so the loop runs its fallback.`;
    case 'terminate_with_partial':
      if (verdict && 'malformed' in verdict) {
        return `The validator's output was malformed (${verdict.malformed}), not a validation result, so the loop stops with the partial result.`;
      }
      return verdictError
        ? `The error is fundamental (${quote(verdictError.message)}): refining cannot fix it, so the loop stops with the partial result.`
        : 'The validator rejected the candidate without a diagnostic; a loop cannot safely refine what it cannot diagnose.';
    case 'stalled':
      return `The same ${settings.stall?.on === 'verdict' ? 'verdict' : 'candidate and verdict'} came back ${context.stall.repeats} times in a row (fingerprint ${context.stall.fingerprint}); more retries would repeat it.`;
    case 'iteration_exhausted':
      return failure?.step === 'fallback'
        ? `Correctable errors spent all ${settings.maxRetries} retries and the fallback failed (${failed}).`
        : `Correctable errors spent all ${settings.maxRetries} retries and there is no fallback.`;
    case 'ceiling_stop':
      if (context.ledger.deadlineHit) return deadlineSentence(context);
      return `Another attempt would pass the ceiling of ${settings.maxAttempts} attempt invocations (${context.attempts} made).`;
    case 'budget_stop':
      return `The steps have spent ${context.cost} of the cost budget ${settings.maxCost}; more work would pass it.`;
    case 'policy_stop':
      return `The run was denied: ${failed}. A denial is never retried.`;
    case 'permanent_failure':
      return `The run failed permanently: ${failed}.`;
    case 'retry_exhausted':
      return (failure?.retryAfterMs ?? 0) > settings.maxRetryDelayMs
        ? `${failed}; it asked to wait ${failure?.retryAfterMs} ms, more than maxRetryDelayMs (${settings.maxRetryDelayMs} ms).`
        : `${failed}, again after its one retry on the same input; the cause is unresolved.`;
    case 'unknown_outcome':
      return `${failed}. The step may have acted and is not idempotent, so it was not run again: its outcome is unknown.`;
    case 'retry':
      return `${failed}. Nothing was done, so it runs once more on the same input after ${retryDelay(context)} ms.`;
    case 'empty':
      return `The attempt honestly found nothing: ${quote(context.ledger.empty?.reason)}.`;
    case 'aborted':
      return `The run was aborted: ${quote(context.ledger.abortReason)}.`;
    case 'review':
      return 'The loop waits for a person to review the candidate.';
    case 'clarify':
      return `The attempt asked a question and the loop waits for the answer: ${quote(context.pending?.kind === 'clarification' ? context.pending.question : '')}.`;
  }
}

/** The delay before a transient retry: what the failure asked for, else the loop's `retryDelayMs`. */
export function retryDelay(context: LoopContext): number {
  return context.failure?.retryAfterMs ?? context.settings.retryDelayMs;
}

function failureVerb(kind: string): string {
  switch (kind) {
    case 'policy':
      return 'was refused';
    case 'transient':
      return 'failed transiently';
    case 'uncertain':
      return 'failed after it may have acted';
    default:
      return 'failed';
  }
}

function deadlineSentence(context: LoopContext): string {
  const step = context.ledger.deadlineHit?.inFlight;
  const what = step ? `${step} was in flight and was aborted` : 'the loop was waiting to retry';
  return `The run's wall-clock budget (deadlineMs ${context.settings.deadlineMs} ms) ran out; ${what}.`;
}
