import type { FailureRecord, StepName } from '../vocabulary/failures.js';
import type { Verdict } from '../vocabulary/validation.js';

/** The plain values every guard of the decision table reads: a verdict, the counters and bounds. */
export interface RouteFacts {
  verdict: Verdict | undefined;
  retryCount: number;
  maxRetries: number;
  attempts: number;
  maxAttempts: number;
  cost: number;
  maxCost: number | null;
  stallRepeats: number;
  stallAfter: number | null;
  failure: FailureRecord | undefined;
  /** The failed step is declared idempotent. */
  failedIdempotent: boolean;
  maxRetryDelayMs: number;
  /** The one transient retry of the current step input is spent. */
  transientRetried: boolean;
}

/** The step a failure came from, if it is `step`. */
export const failedIn = (facts: Pick<RouteFacts, 'failure'>, step: StepName): boolean =>
  facts.failure?.step === step;
