import { APICallError, RetryError } from 'ai';
import { classifyFailure, transientFailure } from 'loopchart';
import { classifyModelFailure, retryAfter } from 'loopchart/ai';
import { describe, expect, it } from 'vitest';

const apiError = (
  statusCode: number,
  responseHeaders: Record<string, string> = {},
  isRetryable?: boolean,
) =>
  new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://api.example.invalid',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
    ...(isRetryable === undefined ? {} : { isRetryable }),
  });

describe('classifyModelFailure', () => {
  it.each([
    [
      apiError(429, { 'retry-after-ms': '250.5' }),
      { kind: 'transient', effect: 'none', retryAfterMs: 251 },
    ],
    [
      apiError(503, { 'Retry-After': '2' }),
      { kind: 'transient', effect: 'none', retryAfterMs: 2000 },
    ],
    [apiError(500), { kind: 'transient', effect: 'none' }],
    [apiError(401), 'policy'],
    [apiError(403), 'policy'],
    [apiError(400), 'permanent'],
    [apiError(404, {}, false), 'permanent'],
    [
      new RetryError({ message: 'gave up', reason: 'maxRetriesExceeded', errors: [apiError(429)] }),
      { kind: 'transient', effect: 'none' },
    ],
    [new DOMException('timed out', 'TimeoutError'), { kind: 'transient', effect: 'none' }],
    [new Error('something else'), undefined],
    [transientFailure('typed'), undefined],
  ])('%s → %j', (error, expected) => {
    expect(classifyModelFailure(error)).toEqual(expected);
  });

  it('reads retry-after as seconds or as an HTTP date, and ignores nonsense', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(retryAfter({ 'retry-after': 'Tue, 01 Dec 2026 12:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfter({ 'retry-after-ms': '-5', 'retry-after': '1' }, now)).toBe(1000);
    expect(retryAfter(undefined)).toBeUndefined();
  });
});

describe('error.cause facts', () => {
  it('keeps the status, code, retry headers and usage of the failure or its cause, JSON-safe', () => {
    const live = Object.assign(new Error('rate limited'), {
      status: 429,
      code: 'rate_limit_exceeded',
      headers: new Headers({
        'retry-after': '3',
        authorization: 'secret',
        'x-ratelimit-reset': '2s',
      }),
      usage: { inputTokens: 12, outputTokens: 0, details: { nested: 1 }, note: 'x' },
      socket: { huge: 'object' },
    });
    const record = classifyFailure(transientFailure('wrapped', { cause: live }), 'attempt');
    expect(record.facts).toEqual({
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '3', 'x-ratelimit-reset': '2s' },
      usage: { inputTokens: 12, outputTokens: 0 },
    });
  });

  it('is bounded, and a getter that throws hides only its own fact', () => {
    const hostile = {
      statusCode: 502,
      get code(): string {
        throw new Error('no');
      },
      responseHeaders: Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`x-ratelimit-limit-${i}`, 'v'.repeat(1000)]),
      ),
    };
    const { facts } = classifyFailure(hostile, 'attempt');
    expect(facts?.status).toBe(502);
    expect(facts?.code).toBeUndefined();
    expect(Object.keys(facts?.headers ?? {})).toHaveLength(12);
    expect(Object.values(facts?.headers ?? {})[0]?.length).toBe(200);
  });
});
