import {
  permanentFailure,
  policyRejection,
  transientFailure,
  uncertainSideEffect,
  withCost,
} from 'loopchart';

// Factories for values a hostile or buggy step can produce. Each call builds a fresh value, so a
// property's counterexample prints as a tag (fast-check cannot print a Proxy that throws).

const trap = () => {
  throw new Error('hostile proxy trap');
};

/** A Proxy whose every trap throws (get, has, ownKeys, getPrototypeOf, …). */
export function hostileProxy(): object {
  return new Proxy({}, new Proxy({}, { get: () => trap }));
}

/** An object whose every property read throws, including `message`, `name` and `toJSON`. */
export function throwingGetters(): object {
  const value = {};
  for (const key of ['message', 'name', 'stack', 'cause', 'valid', 'error', 'toJSON', 'text']) {
    Object.defineProperty(value, key, { enumerable: true, get: trap });
  }
  return value;
}

/** An `Error` whose `message` and `name` getters throw. */
export function errorWithThrowingMessage(): Error {
  const error = new Error('unreadable');
  Object.defineProperty(error, 'message', { get: trap });
  Object.defineProperty(error, 'name', { get: trap });
  return error;
}

/** Two errors that are each other's `cause`. */
export function errorWithCircularCause(): Error {
  const first = new Error('first');
  const second = new Error('second', { cause: first });
  first.cause = second;
  return first;
}

/** A plain object that contains itself. */
export function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { text: 'draft', list: [] };
  value.self = value;
  (value.list as unknown[]).push(value);
  return value;
}

/** Arrays nested `depth` deep: deeper than JSON.stringify's stack allows at 100,000. */
export function deeplyNested(depth: number): unknown[] {
  let value: unknown[] = ['bottom'];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

const HUGE_TEXT = 'x'.repeat(250_000);
const HUGE_LIST = Array.from({ length: 10_000 }, (_, index) => ({ index, text: 'item' }));

/** A 250,000-character string and a 10,000-item array (shared, never mutated). */
export function huge(): { text: string; list: typeof HUGE_LIST } {
  return { text: HUGE_TEXT, list: HUGE_LIST };
}

/** Untrusted JSON with own `__proto__`, `constructor` and `prototype` keys (JSON.parse makes them own). */
export function protoKeyed(): Record<string, unknown> {
  return JSON.parse(
    '{"__proto__":{"polluted":"yes","valid":true},"constructor":{"prototype":{"polluted":"yes"}},' +
      '"prototype":{"polluted":"yes"},"nested":{"__proto__":{"polluted":"yes"}}}',
  );
}

/** A deep-frozen object. */
export function frozen(): object {
  return Object.freeze({ text: 'frozen', inner: Object.freeze({ list: Object.freeze([1, 2]) }) });
}

/** Candidates that cost real time to hash (generated less often). */
export const COSTLY_CANDIDATE_TAGS = ['deep', 'huge'] as const;

export const CANDIDATE_TAGS = [
  'text',
  'json',
  'protoKeyed',
  'cyclic',
  ...COSTLY_CANDIDATE_TAGS,
  'proxy',
  'nestedProxy',
  'costedProxy',
  'throwingGetters',
  'frozen',
  'bigint',
  'undefined',
  'null',
  'symbol',
  'function',
  'thenableThatThrows',
] as const;
export type CandidateTag = (typeof CANDIDATE_TAGS)[number];

/** Builds the candidate (or refined input, or fallback result) a tag names. */
export function candidateOf(tag: CandidateTag, text: string, json: unknown): unknown {
  switch (tag) {
    case 'text':
      return text;
    case 'json':
      return json;
    case 'protoKeyed':
      return protoKeyed();
    case 'cyclic':
      return cyclic();
    case 'deep':
      return deeplyNested(100_000);
    case 'huge':
      return huge();
    case 'proxy':
      return hostileProxy();
    case 'nestedProxy':
      return { text, inner: hostileProxy() };
    case 'costedProxy':
      return withCost(hostileProxy(), 1);
    case 'throwingGetters':
      return throwingGetters();
    case 'frozen':
      return frozen();
    case 'bigint':
      return 10n ** 30n;
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'symbol':
      return Symbol('candidate');
    case 'function':
      return () => 'a function';
    case 'thenableThatThrows':
      return Object.defineProperty({}, 'then', { get: trap });
  }
}

export const THROWN_TAGS = [
  'string',
  'null',
  'undefined',
  'number',
  'symbol',
  'frozen',
  'throwingGetters',
  'errorWithThrowingMessage',
  'circularCause',
  'proxy',
  'plainError',
  'policy',
  'permanent',
  'transientNone',
  'transientUnknown',
  'uncertain',
] as const;
export type ThrownTag = (typeof THROWN_TAGS)[number];

/** Builds the value a step throws for a tag; `retryAfterMs` goes to the transient ones. */
export function thrownOf(tag: ThrownTag, retryAfterMs: number | undefined): unknown {
  switch (tag) {
    case 'string':
      return 'a thrown string';
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'number':
      return 42;
    case 'symbol':
      return Symbol('thrown');
    case 'frozen':
      return frozen();
    case 'throwingGetters':
      return throwingGetters();
    case 'errorWithThrowingMessage':
      return errorWithThrowingMessage();
    case 'circularCause':
      return errorWithCircularCause();
    case 'proxy':
      return hostileProxy();
    case 'plainError':
      return new TypeError('an untyped error');
    case 'policy':
      return policyRejection('denied');
    case 'permanent':
      return permanentFailure('cannot succeed');
    case 'transientNone':
      return transientFailure('429', { effect: 'none', ...optional(retryAfterMs) });
    case 'transientUnknown':
      return transientFailure('socket hang up', optional(retryAfterMs));
    case 'uncertain':
      return uncertainSideEffect('maybe sent');
  }
}

const optional = (retryAfterMs: number | undefined) =>
  retryAfterMs === undefined ? {} : { retryAfterMs };
