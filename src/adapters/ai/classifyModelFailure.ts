import { APICallError, RetryError } from 'ai';
import { type FailureClassification, isLoopStepFailure } from '../../core/vocabulary/failures.js';

/**
 * Classifies what an AI SDK call throws (SPEC §2): a retryable `APICallError` (429, 5xx, a
 * dropped connection) is transient with the delay its `retry-after-ms` / `retry-after` header
 * asks for; 401 and 403 are policy denials; an abort or a timeout the caller did not cause is
 * transient (a generation has no effect to repeat); a `RetryError` is read through its last error.
 * Anything else is left to the default classifier (`permanent`).
 * @example const outcome = await runLoop({ attempt, validate, classifyFailure: classifyModelFailure }, input);
 */
export function classifyModelFailure(error: unknown): FailureClassification | undefined {
  if (isLoopStepFailure(error)) return undefined;
  if (RetryError.isInstance(error)) return classifyModelFailure(error.lastError);
  if (APICallError.isInstance(error)) {
    if (error.statusCode === 401 || error.statusCode === 403) return 'policy';
    if (!error.isRetryable) return 'permanent';
    const retryAfterMs = retryAfter(error.responseHeaders);
    return {
      kind: 'transient',
      effect: 'none',
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  const name = nameOf(error);
  if (name === 'AbortError' || name === 'TimeoutError')
    return { kind: 'transient', effect: 'none' };
  return undefined;
}

/**
 * The delay a response asks for, in ms: `retry-after-ms`, else `retry-after` (seconds or a date).
 * @example throw transientFailure('rate limited', { effect: 'none', retryAfterMs: retryAfter(error.responseHeaders) });
 */
export function retryAfter(headers: Record<string, string> | undefined, now = Date.now()) {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const header = lower['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds) && seconds >= 0)
    return Math.ceil(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function nameOf(error: unknown): unknown {
  try {
    return (error as { name?: unknown } | null)?.name;
  } catch {
    return undefined;
  }
}
