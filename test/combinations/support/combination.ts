/**
 * One generated combination of features (test/combinations/combinations.test.ts): a loop config
 * across the feature space, scripted steps that count what they do, the answers a person gives to
 * its pauses, an abort plan, a host (runLoop without a store, the memory or SQLite store, a
 * pipeline stage, an app actor) and, for the stores, a save at which the process "dies".
 */
import fc from 'fast-check';
import {
  clarificationRequest,
  emptyResult,
  type LoopConfig,
  permanentFailure,
  transientFailure,
  uncertainSideEffect,
  withCost,
} from 'loopchart';

export const ATTEMPT_MOVES = [
  'draft',
  'same',
  'empty',
  'ask',
  'costly',
  'transientNone',
  'transientUnknown',
  'uncertain',
  'permanent',
  'hang',
] as const;
export const VERDICTS = ['valid', 'correctable', 'same', 'fundamental', 'hang', 'throw'] as const;
export const REFINE_MOVES = ['ok', 'transientNone', 'hang', 'throw'] as const;
export const FALLBACK_MOVES = ['ok', 'hang', 'throw'] as const;
export const ANSWERS = [
  'continue',
  'modifyCandidate',
  'modifyInput',
  'retry',
  'abort',
  'bad',
] as const;
export const HOSTS = ['plain', 'memory', 'sqlite', 'postgres', 'pipeline', 'actor'] as const;

export interface Combination {
  maxRetries: number;
  maxAttempts: number | undefined;
  maxCost: number | undefined;
  fallback: boolean;
  stall: false | { after: number; on: 'candidate-and-verdict' | 'verdict' };
  review: false | { beforeProceed: boolean; afterFailedValidation: boolean };
  idempotent: { attempt: boolean; refine: boolean };
  attempt: (typeof ATTEMPT_MOVES)[number][];
  validate: (typeof VERDICTS)[number][];
  refine: (typeof REFINE_MOVES)[number][];
  fallbackMoves: (typeof FALLBACK_MOVES)[number][];
  answers: (typeof ANSWERS)[number][];
  abortAfterMs: number | null;
  host: (typeof HOSTS)[number];
  /** The save (1-based) at which the process dies, for the stores; null: it never does. */
  crashAtSave: number | null;
}

export const combinationArbitrary: fc.Arbitrary<Combination> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 3 }),
  maxAttempts: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  maxCost: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  fallback: fc.boolean(),
  stall: fc.oneof(
    fc.constant(false as const),
    fc.record({
      after: fc.integer({ min: 2, max: 3 }),
      on: fc.constantFrom('candidate-and-verdict' as const, 'verdict' as const),
    }),
  ),
  review: fc.oneof(
    fc.constant(false as const),
    fc.record({ beforeProceed: fc.boolean(), afterFailedValidation: fc.boolean() }),
  ),
  idempotent: fc.record({ attempt: fc.boolean(), refine: fc.boolean() }),
  attempt: fc.array(fc.constantFrom(...ATTEMPT_MOVES), { minLength: 1, maxLength: 5 }),
  validate: fc.array(fc.constantFrom(...VERDICTS), { minLength: 1, maxLength: 4 }),
  refine: fc.array(fc.constantFrom(...REFINE_MOVES), { minLength: 1, maxLength: 3 }),
  fallbackMoves: fc.array(fc.constantFrom(...FALLBACK_MOVES), { minLength: 1, maxLength: 2 }),
  answers: fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 6 }),
  abortAfterMs: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) },
  ),
  host: fc.constantFrom(...HOSTS),
  crashAtSave: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
});

/** A run's deadline: short where a step can hang (so the property stays fast), else out of reach. */
export function deadlineOf(c: Combination): number {
  const hangs =
    c.attempt.includes('hang') ||
    c.validate.includes('hang') ||
    c.refine.includes('hang') ||
    (c.fallback && c.fallbackMoves.includes('hang'));
  return hangs ? 30 : 5000;
}

/** What the steps did, counted across every process of one run (the outside world's view). */
export interface Ledger {
  /** Calls that may have acted, by `step:attempt:iteration`. */
  effects: Map<string, number>;
  /** Attempt numbers the attempt step was called with. */
  attemptNumbers: Set<number>;
  fallbackEffects: number;
  calls: number;
}

export function newLedger(): Ledger {
  return { effects: new Map(), attemptNumbers: new Set(), fallbackEffects: 0, calls: 0 };
}

interface Ctx {
  input: unknown;
  attempt: number;
  iteration: number;
  answers: readonly unknown[];
  signal: AbortSignal;
}

/**
 * The scripted loop. Each step plays its moves in turn (the last repeats); a move that may have
 * acted (a success, an uncertain or unknown-effect failure, a hang) is written to the ledger.
 */
export function scriptedConfig(c: Combination, ledger: Ledger): LoopConfig<unknown, unknown> {
  const turn = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  const next = <T>(moves: readonly T[], step: keyof typeof turn): T =>
    moves[Math.min(turn[step]++, moves.length - 1)] as T;
  const acted = (key: string) => ledger.effects.set(key, (ledger.effects.get(key) ?? 0) + 1);
  const hang = (signal: AbortSignal) =>
    new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason)),
    );
  return {
    maxRetries: c.maxRetries,
    ...(c.maxAttempts === undefined ? {} : { maxAttempts: c.maxAttempts }),
    ...(c.maxCost === undefined ? {} : { maxCost: c.maxCost }),
    stall: c.stall,
    review: c.review,
    idempotent: c.idempotent,
    deadlineMs: deadlineOf(c),
    retryDelayMs: 1,
    attempt: async (ctx: Ctx) => {
      ledger.calls += 1;
      ledger.attemptNumbers.add(ctx.attempt);
      const key = `attempt:${ctx.attempt}`;
      const move = next(c.attempt, 'attempt');
      switch (move) {
        case 'draft':
          acted(key);
          return { draft: ctx.attempt, answers: ctx.answers.length };
        case 'same':
          acted(key);
          return { draft: 'same' };
        case 'empty':
          acted(key);
          return emptyResult('nothing matches');
        case 'ask':
          acted(key);
          return clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] });
        case 'costly':
          acted(key);
          return withCost({ draft: ctx.attempt }, 2);
        case 'transientNone':
          throw transientFailure('429', { effect: 'none', retryAfterMs: 1 });
        case 'transientUnknown':
          acted(key);
          throw transientFailure('socket hang up', { effect: 'unknown', retryAfterMs: 1 });
        case 'uncertain':
          acted(key);
          throw uncertainSideEffect('timed out after sending');
        case 'permanent':
          throw permanentFailure('404');
        default:
          acted(key);
          return hang(ctx.signal);
      }
    },
    validate: async (_candidate: unknown, ctx: Ctx) => {
      ledger.calls += 1;
      const move = next(c.validate, 'validate');
      if (move === 'valid') return { valid: true };
      if (move === 'correctable') {
        return { valid: false, error: { severity: 'correctable', message: `fix ${ctx.attempt}` } };
      }
      if (move === 'same')
        return { valid: false, error: { severity: 'correctable', message: 'same' } };
      if (move === 'fundamental') {
        return { valid: false, error: { severity: 'fundamental', message: 'wrong task' } };
      }
      if (move === 'hang') return hang(ctx.signal);
      throw new Error('the judge crashed');
    },
    refine: async (ctx: Ctx) => {
      ledger.calls += 1;
      const move = next(c.refine, 'refine');
      if (move === 'transientNone')
        throw transientFailure('503', { effect: 'none', retryAfterMs: 1 });
      if (move === 'throw') throw new Error('refine broke');
      acted(`refine:${ctx.iteration}`);
      if (move === 'hang') return hang(ctx.signal);
      return { revised: ctx.iteration };
    },
    ...(c.fallback
      ? {
          fallback: async (ctx: Ctx) => {
            ledger.calls += 1;
            ledger.fallbackEffects += 1;
            acted('fallback');
            const move = next(c.fallbackMoves, 'fallback');
            if (move === 'hang') return hang(ctx.signal);
            if (move === 'throw') throw new Error('fallback broke');
            return { template: true };
          },
        }
      : {}),
  } as LoopConfig<unknown, unknown>;
}

/** The event for a scripted answer to a pause (`bad` is malformed on purpose). */
export function answerEvent(
  answer: (typeof ANSWERS)[number],
  pending: { kind: string } | undefined,
): Record<string, unknown> {
  if (answer === 'bad') return { type: 'review.modify' };
  if (pending?.kind === 'clarification') {
    return answer === 'abort'
      ? { type: 'loop.abort', reason: 'the person left' }
      : { type: 'clarification.answer', answer: '2025' };
  }
  switch (answer) {
    case 'continue':
      return { type: 'review.continue' };
    case 'modifyCandidate':
      return { type: 'review.modify', candidate: { edited: true } };
    case 'modifyInput':
      return { type: 'review.modify', input: 'edited input' };
    case 'retry':
      return { type: 'review.retry', feedback: 'shorter' };
    default:
      return { type: 'review.abort', reason: 'the reviewer stopped it' };
  }
}
