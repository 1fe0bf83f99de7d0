import { describeValue } from '../vocabulary/describeValue.js';
import type { TraceDecision } from '../vocabulary/statuses.js';
import type { Because } from './decisionTable.js';
import type { RouteFacts } from './routeFacts.js';

/** What a rationale sentence may quote besides the facts the guards read. */
export interface RationaleExtras {
  stallOn: 'candidate-and-verdict' | 'verdict' | undefined;
  stallFingerprint: string | undefined;
  /** The wait before a transient retry. */
  retryDelayMs: number;
  emptyReason: string | undefined;
  abortReason: string | undefined;
  question: string | undefined;
  /** Set when the run's wall-clock budget ran out: the budget, and the step it aborted. */
  deadline: { deadlineMs: number | null; inFlight: string | null } | undefined;
}

/** The key of a rationale: a row's `because`, or a decision no routing row takes. */
export type RationaleKey = Because | Exclude<TraceDecision, Because | 'terminate_with_partial'>;

const quote = (text: string | undefined) => describeValue(text ?? '', 160);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The extras of a sentence that quotes none (the pure router's). */
export const NO_EXTRAS: RationaleExtras = {
  stallOn: undefined,
  stallFingerprint: undefined,
  retryDelayMs: 0,
  emptyReason: undefined,
  abortReason: undefined,
  question: undefined,
  deadline: undefined,
};

function failed({ failure }: RouteFacts): string {
  return failure ? `${failure.step} ${failureVerb(failure.kind)}: ${quote(failure.message)}` : '';
}

function verdictMessage({ verdict }: RouteFacts): string | undefined {
  return verdict && 'error' in verdict ? verdict.error?.message : undefined;
}

/** One human sentence per row of the decision table and the failure routes, and per pause or stop. */
export const RATIONALES: Record<
  RationaleKey,
  (facts: RouteFacts, extras: RationaleExtras) => string
> = {
  malformed: ({ verdict }) =>
    `The validator's output was malformed (${verdict && 'malformed' in verdict ? verdict.malformed : ''}), not a validation result, so the loop stops with the partial result.`,
  proceed: ({ retryCount }) =>
    retryCount === 0
      ? 'The validator accepted the first candidate.'
      : `The validator accepted the candidate after ${plural(retryCount, 'refine cycle')}.`,
  fundamental: (f) =>
    `The error is fundamental (${quote(verdictMessage(f))}): refining cannot fix it, so the loop stops with the partial result.`,
  noDiagnostic: () =>
    'The validator rejected the candidate with no diagnostic; a loop cannot safely refine what it cannot diagnose.',
  stalled: (f, x) =>
    `The same ${x.stallOn === 'verdict' ? 'verdict' : 'candidate and verdict'} came back ${f.stallRepeats} times in a row (fingerprint ${x.stallFingerprint}); more retries would repeat it.`,
  refine: (f) =>
    `The error is correctable (${quote(verdictMessage(f))}) and ${f.maxRetries - f.retryCount} of ${f.maxRetries} retries are left, so the loop refines.`,
  fallback: (f) =>
    `Correctable errors spent all ${f.maxRetries} retries, so the loop runs its fallback.`,
  iteration_exhausted: (f) =>
    f.failure?.step === 'fallback'
      ? `Correctable errors spent all ${f.maxRetries} retries and the fallback failed (${failed(f)}).`
      : `Correctable errors spent all ${f.maxRetries} retries and there is no fallback.`,
  ceiling_stop: (f, x) =>
    x.deadline
      ? `The run's wall-clock budget (deadlineMs ${x.deadline.deadlineMs} ms) ran out; ${x.deadline.inFlight ? `${x.deadline.inFlight} was in flight and was aborted` : 'the loop was waiting to retry'}.`
      : `Another attempt would pass the ceiling of ${f.maxAttempts} attempt invocations (${f.attempts} made).`,
  budget_stop: (f) =>
    f.failure?.budget
      ? `${f.failure.message}.`
      : `The steps have spent ${f.cost} of the cost budget ${f.maxCost}; more work would pass it.`,
  policy_stop: (f) => `The run was denied: ${failed(f)}. A denial is never retried.`,
  permanent_failure: (f) => `The run failed permanently: ${failed(f)}.`,
  retry_exhausted: (f) =>
    (f.failure?.retryAfterMs ?? 0) > f.maxRetryDelayMs
      ? `${failed(f)}; it asked to wait ${f.failure?.retryAfterMs} ms, more than maxRetryDelayMs (${f.maxRetryDelayMs} ms).`
      : `${failed(f)}, again after its one retry on the same input; the cause is unresolved.`,
  unknown_outcome: (f) =>
    `${failed(f)}. The step may have acted and is not idempotent, so it was not run again: its outcome is unknown.`,
  retry: (f, x) =>
    `${failed(f)}. Nothing was done, so it runs once more on the same input after ${x.retryDelayMs} ms.`,
  empty: (_, x) => `The attempt honestly found nothing: ${quote(x.emptyReason)}.`,
  aborted: (_, x) => `The run was aborted: ${quote(x.abortReason)}.`,
  review: () => 'The loop waits for a person to review the candidate.',
  clarify: (_, x) =>
    `The attempt asked a question and the loop waits for the answer: ${quote(x.question ?? '')}.`,
};

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
