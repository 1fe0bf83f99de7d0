import type { FailureRecord } from '../vocabulary/failures.js';

export function isPolicyFailure(failure: FailureRecord | undefined): boolean {
  return failure?.kind === 'policy';
}

export function isPermanentFailure(failure: FailureRecord | undefined): boolean {
  return failure?.kind === 'permanent';
}

/**
 * The failed step may have acted and is not idempotent, so running it again could repeat an effect:
 * an `uncertain` failure, or a `transient` one whose effect is unknown.
 */
export function hasUnknownEffect(failure: FailureRecord | undefined, idempotent: boolean): boolean {
  if (failure === undefined || idempotent) return false;
  return (
    failure.kind === 'uncertain' || (failure.kind === 'transient' && failure.effect !== 'none')
  );
}

/** The delay the failure asks for is longer than the loop is allowed to wait. */
export function retryDelayTooLong(
  failure: FailureRecord | undefined,
  maxRetryDelayMs: number,
): boolean {
  return (failure?.retryAfterMs ?? 0) > maxRetryDelayMs;
}
