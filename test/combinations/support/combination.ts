/**
 * One generated combination of features (test/combinations/combinations.test.ts): a loop config
 * across the feature space, its steps (scripted, or an AI SDK model through `modelSteps`), the
 * answers a person gives to its pauses, an abort plan, a host (runLoop without a store, the
 * memory, SQLite or Postgres store, a pipeline of one to three stages, an app actor, an agent)
 * and, where a store is, a save at which the process "dies".
 */
import fc from 'fast-check';
import { type Faults, faultsArbitrary, NO_FAULTS, needsDeadline } from './faults.js';

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
  'undefined',
  'odd',
] as const;
/** `undefined`: the step returns nothing; `odd`: it rejects with an odd value (faults.ts). */
export const VERDICTS = [
  'valid',
  'correctable',
  'same',
  'fundamental',
  'hang',
  'throw',
  'undefined',
  'odd',
] as const;
export const REFINE_MOVES = ['ok', 'transientNone', 'hang', 'throw', 'undefined', 'odd'] as const;
export const FALLBACK_MOVES = ['ok', 'hang', 'throw', 'undefined', 'odd'] as const;
/** What the mock model answers one call with (test/combinations/support/modelConfig.ts). */
export const MODEL_REPLIES = [
  'good',
  'mismatch',
  'prose',
  'refusal',
  'rateLimited',
  'overloaded',
  'denied',
  'badRequest',
  'hang',
] as const;
export const ANSWERS = [
  'continue',
  'modifyCandidate',
  'modifyInput',
  'retry',
  'abort',
  'bad',
] as const;
export const HOSTS = [
  'plain',
  'memory',
  'sqlite',
  'postgres',
  'pipeline',
  'actor',
  'agent',
] as const;
export const STORES = ['memory', 'sqlite', 'postgres'] as const;
export const CROSS_CHECKS = ['none', 'valid', 'invalid', 'throw', 'hang'] as const;

export type ModelReply = (typeof MODEL_REPLIES)[number];

export interface Combination {
  maxRetries: number;
  maxAttempts: number | undefined;
  maxCost: number | undefined;
  /**
   * Each step's declared cost per call, in units of maxCost (costUnit), that maxCost reserves
   * before the call; a step without one reserves nothing. Honest or not: a scripted `costly`
   * attempt reports 2, a model attempt 1 unit a generation.
   */
  costEstimates?: Partial<Record<Step, number>> | undefined;
  fallback: boolean;
  stall: false | { after: number; on: 'candidate-and-verdict' | 'verdict' };
  review: false | { beforeProceed: boolean; afterFailedValidation: boolean };
  idempotent: { attempt: boolean; refine: boolean; fallback: boolean };
  /** Scripted steps, or `modelSteps` over the AI SDK's mock model (then `attempt` is unused). */
  steps: 'scripted' | 'model';
  attempt: (typeof ATTEMPT_MOVES)[number][];
  validate: (typeof VERDICTS)[number][];
  refine: (typeof REFINE_MOVES)[number][];
  fallbackMoves: (typeof FALLBACK_MOVES)[number][];
  /** The model's replies, in turn (the last repeats); with `retryAfterMs` for a 429. */
  model: { replies: ModelReply[]; retryAfterMs: number; withRefine: boolean };
  attemptTimeoutMs: number | null;
  stepTimeoutMs: number | null;
  /** `short` 30 ms, `long` 5 s, `none` (null); forced `short` when a step could hang unbounded. */
  deadline: 'short' | 'long' | 'none';
  answers: (typeof ANSWERS)[number][];
  abortAfterMs: number | null;
  host: (typeof HOSTS)[number];
  /** The save (1-based) at which the process dies, where a store is; null: it never does. */
  crashAtSave: number | null;
  /** The pipeline host's plan and store; the agent host's request and router. */
  pipeline: {
    shape: 'single' | 'chain' | 'layer';
    crossCheck: (typeof CROSS_CHECKS)[number];
    checkpoint: boolean;
    store: 'none' | (typeof STORES)[number];
  };
  agent: {
    request: 'simple' | 'draft' | 'compare';
    shape: 'routed' | 'single-shot' | 'loop';
    /** The router's model check, asked every time: its answer, nonsense, or a call that hangs. */
    check: 'none' | 'simple' | 'complex' | 'garbage' | 'hang';
  };
  /** The outside world's faults (faults.ts). */
  faults: Faults;
}

const timeout = fc.option(fc.integer({ min: 4, max: 12 }), { nil: null, freq: 2 });

export const combinationArbitrary: fc.Arbitrary<Combination> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 3 }),
  maxAttempts: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  maxCost: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  costEstimates: fc.option(
    fc.record(
      {
        attempt: fc.integer({ min: 0, max: 3 }),
        validate: fc.integer({ min: 0, max: 1 }),
        refine: fc.integer({ min: 0, max: 1 }),
        fallback: fc.integer({ min: 0, max: 1 }),
      },
      { requiredKeys: ['attempt'] },
    ),
    { nil: undefined, freq: 2 },
  ),
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
  idempotent: fc.record({ attempt: fc.boolean(), refine: fc.boolean(), fallback: fc.boolean() }),
  steps: fc.constantFrom('scripted' as const, 'scripted' as const, 'model' as const),
  attempt: fc.array(fc.constantFrom(...ATTEMPT_MOVES), { minLength: 1, maxLength: 5 }),
  validate: fc.array(fc.constantFrom(...VERDICTS), { minLength: 1, maxLength: 4 }),
  refine: fc.array(fc.constantFrom(...REFINE_MOVES), { minLength: 1, maxLength: 3 }),
  fallbackMoves: fc.array(fc.constantFrom(...FALLBACK_MOVES), { minLength: 1, maxLength: 2 }),
  model: fc.record({
    replies: fc.array(fc.constantFrom(...MODEL_REPLIES), { minLength: 1, maxLength: 5 }),
    retryAfterMs: fc.constantFrom(0, 2, 8),
    withRefine: fc.boolean(),
  }),
  attemptTimeoutMs: timeout,
  stepTimeoutMs: timeout,
  deadline: fc.constantFrom('short' as const, 'short' as const, 'long' as const, 'none' as const),
  answers: fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 6 }),
  abortAfterMs: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) },
  ),
  host: fc.constantFrom(...HOSTS),
  crashAtSave: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  pipeline: fc.record({
    shape: fc.constantFrom('single' as const, 'chain' as const, 'layer' as const, 'layer' as const),
    crossCheck: fc.constantFrom(...CROSS_CHECKS),
    checkpoint: fc.boolean(),
    store: fc.constantFrom('none' as const, ...STORES),
  }),
  agent: fc.record({
    request: fc.constantFrom('simple' as const, 'draft' as const, 'compare' as const),
    shape: fc.constantFrom('routed' as const, 'single-shot' as const, 'loop' as const),
    check: fc.constantFrom(
      'none' as const,
      'simple' as const,
      'complex' as const,
      'garbage' as const,
      'hang' as const,
    ),
  }),
  faults: faultsArbitrary,
});

export type Step = 'attempt' | 'validate' | 'refine' | 'fallback';

/** True when the combination's `step` may never settle by itself. */
export function canHang(c: Combination, step: Step): boolean {
  switch (step) {
    case 'attempt':
      return c.steps === 'model' ? c.model.replies.includes('hang') : c.attempt.includes('hang');
    case 'validate':
      return c.validate.includes('hang');
    case 'refine':
      return hasRefine(c) && c.refine.includes('hang');
    default:
      return c.fallback && c.fallbackMoves.includes('hang');
  }
}

/** The scripted refine runs unless model steps reask through feedback alone. */
export function hasRefine(c: Combination): boolean {
  return c.steps === 'scripted' || c.model.withRefine;
}

/** The step's own time limit (stepTimeoutMs defaults to attemptTimeoutMs), or null. */
export function timeoutOf(c: Combination, step: Step): number | null {
  return step === 'attempt' ? c.attemptTimeoutMs : (c.stepTimeoutMs ?? c.attemptTimeoutMs);
}

const STEPS: readonly Step[] = ['attempt', 'validate', 'refine', 'fallback'];

/**
 * A run's deadline: 30 ms, 5 s or none, as generated; always 30 ms when a step could hang with no
 * timeout of its own, at least 30 ms when a store call or an answer schema could hang, since only
 * the deadline can end that run (what `deadlineMs: null` loses).
 */
export function deadlineOf(c: Combination): number | null {
  const unbounded = STEPS.some((step) => canHang(c, step) && timeoutOf(c, step) === null);
  if (unbounded || c.deadline === 'short') return 30;
  if (c.deadline === 'long') return 5000;
  return needsDeadline(c.faults) ? 30 : null;
}

export const RETRY_DELAY_MS = 1;
/** A pipeline cross-check that does not answer within this fails (and pauses the pipeline). */
export const CROSS_CHECK_TIMEOUT_MS = 15;
/** An agent's model check that does not answer within this leaves the shape to the heuristic. */
export const MODEL_CHECK_TIMEOUT_MS = 10;
/** Tokens a model reply reports (input, output); a scripted `costly` attempt costs 2. */
export const REPLY_TOKENS = [10, 5] as const;

/** What one unit of `maxCost` is: 15 tokens for a model call, 1 for scripted steps. */
export function costUnit(c: Combination): number {
  return c.steps === 'model' ? REPLY_TOKENS[0] + REPLY_TOKENS[1] : 1;
}

/**
 * The combination without the outside world's faults: no store, clock, row or schema faults, and
 * steps that neither return undefined nor throw odd values (for hosts that take no part in them).
 */
export function withoutFaults(c: Combination): Combination {
  const plain = <T extends string>(moves: T[], instead: T) =>
    moves.map((move) => (move === 'undefined' || move === 'odd' ? instead : move));
  return {
    ...c,
    faults: NO_FAULTS,
    attempt: plain(c.attempt, 'permanent'),
    validate: plain(c.validate, 'throw'),
    refine: plain(c.refine, 'throw'),
    fallbackMoves: plain(c.fallbackMoves, 'throw'),
  };
}
