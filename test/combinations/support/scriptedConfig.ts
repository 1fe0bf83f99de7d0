import {
  clarificationRequest,
  emptyResult,
  permanentFailure,
  transientFailure,
  uncertainSideEffect,
  withCost,
} from 'loopchart';
import { type Combination, RETRY_DELAY_MS } from './combination.js';
import { oddValue } from './faults.js';
import { acted, asksWait, hang, type Ledger, reported } from './ledger.js';

export interface Ctx {
  input: unknown;
  attempt: number;
  iteration: number;
  answers: readonly unknown[];
  signal: AbortSignal;
}

/** Plays each step's moves in turn (the last repeats), across every process of one run. */
export function scriptPlayer() {
  const turn = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  return <T>(moves: readonly T[], step: keyof typeof turn): T =>
    moves[Math.min(turn[step]++, moves.length - 1)] as T;
}

export type Next = ReturnType<typeof scriptPlayer>;

/**
 * A scripted attempt and judge. A move that may have acted (a success, an uncertain or
 * unknown-effect failure, a hang) is written to the ledger.
 */
export function scriptedAttempt(c: Combination, ledger: Ledger, next: Next) {
  return {
    attempt: async (ctx: Ctx) => {
      ledger.calls += 1;
      ledger.attemptCalls += 1;
      ledger.attemptNumbers.add(ctx.attempt);
      const key = `attempt:${ctx.attempt}`;
      const move = next(c.attempt, 'attempt');
      switch (move) {
        case 'draft':
          acted(ledger, key);
          return { draft: ctx.attempt, answers: ctx.answers.length };
        case 'same':
          acted(ledger, key);
          return { draft: 'same' };
        case 'empty':
          acted(ledger, key);
          return emptyResult('nothing matches');
        case 'ask':
          acted(ledger, key);
          return clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] });
        case 'costly':
          acted(ledger, key);
          reported(ledger, ctx.signal, 2);
          return withCost({ draft: ctx.attempt }, 2);
        case 'transientNone':
          asksWait(ledger, RETRY_DELAY_MS);
          throw transientFailure('429', { effect: 'none', retryAfterMs: RETRY_DELAY_MS });
        case 'transientUnknown':
          acted(ledger, key);
          asksWait(ledger, RETRY_DELAY_MS);
          throw transientFailure('socket hang up', {
            effect: 'unknown',
            retryAfterMs: RETRY_DELAY_MS,
          });
        case 'uncertain':
          acted(ledger, key); // retried after retryDelayMs when the attempt is idempotent
          asksWait(ledger, RETRY_DELAY_MS);
          throw uncertainSideEffect('timed out after sending');
        case 'permanent':
          throw permanentFailure('404');
        case 'undefined':
          acted(ledger, key);
          return undefined;
        case 'odd':
          acted(ledger, key);
          throw oddValue(ctx.attempt);
        default:
          acted(ledger, key);
          return hang(ledger, 'attempt', ctx.signal);
      }
    },
    validate: (_candidate: unknown, ctx: Ctx) => judge(c, ledger, next, ctx),
  };
}

/** The scripted judge: also the model steps' check of a reply that matched the schema. */
export async function judge(c: Combination, ledger: Ledger, next: Next, ctx: Ctx) {
  ledger.calls += 1;
  ledger.stepCalls.validate += 1;
  const move = next(c.validate, 'validate');
  if (move === 'valid') return { valid: true as const };
  if (move === 'correctable') {
    return {
      valid: false as const,
      error: { severity: 'correctable' as const, message: `fix ${ctx.attempt}` },
    };
  }
  if (move === 'same')
    return { valid: false as const, error: { severity: 'correctable' as const, message: 'same' } };
  if (move === 'fundamental') {
    return {
      valid: false as const,
      error: { severity: 'fundamental' as const, message: 'wrong task' },
    };
  }
  if (move === 'hang') return hang(ledger, 'validate', ctx.signal);
  if (move === 'undefined') return undefined as never; // no verdict at all: malformed
  if (move === 'odd') throw oddValue(ctx.attempt + 3);
  throw new Error('the judge crashed');
}

/** The scripted refine (unless model steps reask through feedback alone) and fallback. */
export function otherSteps(c: Combination, ledger: Ledger, next: Next) {
  const refine = async (ctx: Ctx) => {
    ledger.calls += 1;
    ledger.stepCalls.refine += 1;
    const move = next(c.refine, 'refine');
    if (move === 'transientNone') {
      asksWait(ledger, RETRY_DELAY_MS);
      throw transientFailure('503', { effect: 'none', retryAfterMs: RETRY_DELAY_MS });
    }
    if (move === 'throw') throw new Error('refine broke');
    acted(ledger, `refine:${ctx.iteration}`);
    if (move === 'hang') return hang(ledger, 'refine', ctx.signal);
    if (move === 'undefined') return undefined;
    if (move === 'odd') throw oddValue(ctx.iteration + 5);
    return { revised: ctx.iteration };
  };
  const fallback = async (ctx: Ctx) => {
    ledger.calls += 1;
    ledger.stepCalls.fallback += 1;
    acted(ledger, 'fallback');
    const move = next(c.fallbackMoves, 'fallback');
    if (move === 'hang') return hang(ledger, 'fallback', ctx.signal);
    if (move === 'throw') throw new Error('fallback broke');
    if (move === 'undefined') return undefined;
    if (move === 'odd') throw oddValue(ledger.calls);
    return { template: true };
  };
  return {
    ...(c.steps === 'scripted' || c.model.withRefine ? { refine } : {}),
    ...(c.fallback ? { fallback } : {}),
  };
}
