import {
  cyclic,
  errorWithThrowingMessage,
  hostileProxy,
  throwingGetters,
} from './hostileValues.js';

// Values that imitate loopchart's own: step results and failure records forged with the
// `Symbol.for` keys the library uses (anyone can make them), and the odd clarification requests
// a model's JSON produces. Each call builds a fresh value.

const RESULT = Symbol.for('loopchart.stepResult');
const FAILURE_RECORD = Symbol.for('loopchart.FailureRecord');
const STEP_FAILURE = Symbol.for('loopchart.LoopStepFailure');

const trap = () => {
  throw new Error('hostile getter');
};

export const FORGED_RESULT_TAGS = [
  'emptyCyclicReason',
  'emptyThrowingReason',
  'emptyNoReason',
  'clarificationNoQuestion',
  'clarificationProxyOptions',
  'clarificationThrowingGetters',
  'costNaN',
  'costString',
  'costMax',
  'costNested',
  'unknownKind',
] as const;
export type ForgedResultTag = (typeof FORGED_RESULT_TAGS)[number];

/** A step result made by hand with loopchart's `Symbol.for('loopchart.stepResult')` brand. */
export function forgedResultOf(tag: ForgedResultTag, value: unknown): object {
  switch (tag) {
    case 'emptyCyclicReason':
      return { [RESULT]: 'empty', reason: cyclic() };
    case 'emptyThrowingReason':
      return Object.defineProperty({ [RESULT]: 'empty' }, 'reason', { get: trap });
    case 'emptyNoReason':
      return { [RESULT]: 'empty' };
    case 'clarificationNoQuestion':
      return { [RESULT]: 'clarification' };
    case 'clarificationProxyOptions':
      return { [RESULT]: 'clarification', question: 'which?', options: hostileProxy() };
    case 'clarificationThrowingGetters':
      return Object.assign(throwingGetters(), { [RESULT]: 'clarification' });
    case 'costNaN':
      return { [RESULT]: 'cost', value, cost: Number.NaN };
    case 'costString':
      return { [RESULT]: 'cost', value, cost: '3' };
    case 'costMax':
      return { [RESULT]: 'cost', value, cost: Number.MAX_VALUE };
    case 'costNested':
      return { [RESULT]: 'cost', value: { [RESULT]: 'cost', value, cost: 1 }, cost: 1 };
    case 'unknownKind':
      return { [RESULT]: 'weird', value };
  }
}

/** The value loopchart takes out of a forged result (a cost wrapper's `value`), else the result. */
export function unwrapForged(forged: object): unknown {
  const kind = (forged as Record<symbol, unknown>)[RESULT];
  return kind === 'cost' ? (forged as { value: unknown }).value : forged;
}

export const FORGED_FAILURE_TAGS = [
  'forgedRecord',
  'forgedTransientRecord',
  'forgedStepFailure',
  'forgedTransientStepFailure',
] as const;
export type ForgedFailureTag = (typeof FORGED_FAILURE_TAGS)[number];

/**
 * A thrown object that claims to be a classified failure record (never trusted: records are known
 * by identity) or a typed failure from another copy of loopchart (trusted for its kind, which is
 * then checked).
 */
export function forgedFailureOf(tag: ForgedFailureTag): object {
  switch (tag) {
    case 'forgedRecord':
      return {
        [FAILURE_RECORD]: true,
        step: 'nope',
        kind: 'weird',
        effect: 'none',
        message: { not: 'a string' },
      };
    case 'forgedTransientRecord':
      return {
        [FAILURE_RECORD]: true,
        step: 'validate',
        kind: 'transient',
        effect: 'none',
        retryAfterMs: -1,
        message: 'retry me now',
      };
    case 'forgedStepFailure':
      return { [STEP_FAILURE]: true, kind: 'fatal', effect: 'sometimes', message: 7 };
    case 'forgedTransientStepFailure':
      return { [STEP_FAILURE]: true, kind: 'transient', effect: 'none', retryAfterMs: 1e308 };
  }
}

export const QUESTION_TAGS = ['text', 'noToString', 'toStringReturnsObject', 'symbol'] as const;
export type QuestionTag = (typeof QUESTION_TAGS)[number];

/** A clarification question: text, or a value `String()` cannot turn into text. */
export function questionOf(tag: QuestionTag, text: string): string {
  const questions: Record<QuestionTag, () => unknown> = {
    text: () => text,
    noToString: () => Object.create(null),
    toStringReturnsObject: () => ({ toString: () => hostileProxy() }),
    symbol: () => Symbol('question'),
  };
  return questions[tag]() as string;
}

export const OPTIONS_TAGS = ['object', 'string', 'null', 'mixedItems', 'proxy'] as const;
export type OptionsTag = (typeof OPTIONS_TAGS)[number];

/** Clarification options that are not an array of strings (a model's JSON, or worse). */
export function optionsOf(tag: OptionsTag): readonly string[] {
  const options: Record<OptionsTag, () => unknown> = {
    object: () => ({}),
    string: () => 'yes, no',
    null: () => null,
    mixedItems: () => [1, null, Object.create(null), errorWithThrowingMessage(), 'b'],
    proxy: () => hostileProxy(),
  };
  return options[tag]() as readonly string[];
}

export const ABORT_REASONS = [
  'string',
  'error',
  'default',
  'number',
  'frozen',
  'proxy',
  'errorWithThrowingMessage',
] as const;
export type AbortReasonTag = (typeof ABORT_REASONS)[number];

/** The signal reason a tag names, hostile ones included (their getters throw). */
export function abortReasonOf(tag: AbortReasonTag): unknown {
  const reasons: Record<AbortReasonTag, () => unknown> = {
    string: () => 'the user closed the tab',
    error: () => new Error('shutting down'),
    default: () => undefined,
    number: () => 7,
    frozen: () => Object.freeze({ why: 'frozen reason' }),
    proxy: () => hostileProxy(),
    errorWithThrowingMessage: () => errorWithThrowingMessage(),
  };
  return reasons[tag]();
}
