import { z } from 'zod';
import type { LoopPhase } from '../../core/chart/loopContext.js';
import { FAILURE_KINDS } from '../../core/vocabulary/failures.js';
import { LOOP_STATUSES } from '../../core/vocabulary/statuses.js';

// What a stored loop run must hold to be read at all (SPEC §14: stored rows are checked, not
// trusted). Objects stay loose, so a newer writer's extra fields do not break an older reader;
// every field the runtime or a reader uses is typed. Nothing here transforms a value.

/** Every working state of the loop machine. */
export const LOOP_PHASES = [
  'attempting',
  'validating',
  'routing',
  'refining',
  'fallingBack',
  'failed',
  'waitingToRetry',
  'attemptGate',
  'awaitingReview',
  'awaitingClarification',
] as const satisfies readonly LoopPhase[];
type MissingPhase = Exclude<LoopPhase, (typeof LOOP_PHASES)[number]>;
const everyPhase: [MissingPhase] extends [never] ? true : MissingPhase = true;
void everyPhase;

const STEPS = ['attempt', 'validate', 'refine', 'fallback'] as const;
const count = z.number().int().min(0);
const time = z.number().finite();
const text = z.string();

const settingsSchema = z.looseObject({
  maxRetries: z.number().int().min(0).max(50),
  maxAttempts: z.number().int().min(1).max(100),
  maxCost: z.number().positive().nullable(),
  retryDelayMs: count,
  maxRetryDelayMs: count,
  attemptTimeoutMs: count.nullable(),
  stepTimeoutMs: count.nullable(),
  deadlineMs: count.nullable(),
  stall: z
    .looseObject({ after: count, on: z.enum(['candidate-and-verdict', 'verdict']) })
    .nullable(),
  hasFallback: z.boolean(),
  idempotent: z.looseObject({
    attempt: z.boolean(),
    validate: z.boolean(),
    refine: z.boolean(),
    fallback: z.boolean(),
  }),
  review: z.looseObject({ beforeProceed: z.boolean(), afterFailedValidation: z.boolean() }),
  trace: z.boolean(),
});

const validationErrorSchema = z.looseObject({
  severity: z.enum(['correctable', 'fundamental']),
  message: text,
});

const verdictSchema = z.union([
  z.looseObject({ valid: z.literal(true) }),
  z.looseObject({ valid: z.literal(false), malformed: text }),
  z.looseObject({ valid: z.literal(false), error: validationErrorSchema.nullish() }),
]);

const failureSchema = z.looseObject({
  step: z.enum(STEPS),
  kind: z.enum(FAILURE_KINDS),
  effect: z.enum(['none', 'unknown']),
  retryAfterMs: z.number().nullable().optional(),
  message: text,
  name: text.optional(),
  facts: z.looseObject({}).optional(),
  deadline: z.literal(true).optional(),
  notBegun: z.literal(true).optional(),
});

/** A paused run's question or review request. */
export const pendingSchema = z.union([
  z.looseObject({
    kind: z.literal('clarification'),
    question: text,
    options: z.array(text).optional(),
  }),
  z.looseObject({
    kind: z.literal('review'),
    reason: z.enum(['beforeProceed', 'afterFailedValidation']),
    verdict: verdictSchema.optional(),
  }),
]);

const answerSchema = z.looseObject({ question: text, answer: z.unknown() });

const ledgerSchema = z.looseObject({
  stepStartedAt: time,
  fallbackRuns: count,
  transientRetried: z.boolean(),
  retryAt: time.optional(),
  answers: z.array(answerSchema),
  empty: z.looseObject({ reason: text }).optional(),
  abortReason: text.optional(),
  deadlineAt: time.nullable(),
  deadlineLeftMs: time.nullable(),
  deadlineHit: z.looseObject({ inFlight: z.enum(STEPS).nullable() }).optional(),
});

/** The loop machine's context as a checkpoint keeps it (the trace is kept beside it). */
export const loopContextSchema = z.looseObject({
  settings: settingsSchema,
  key: text.optional(),
  verdict: verdictSchema.optional(),
  feedback: validationErrorSchema.optional(),
  retryCount: count,
  attempts: count,
  cost: z.number().finite().min(0),
  stall: z.looseObject({ fingerprint: text.optional(), repeats: count }),
  failure: failureSchema.optional(),
  pending: pendingSchema.optional(),
  phase: z.enum(LOOP_PHASES),
  ledger: ledgerSchema,
});

/** One trace entry (SPEC §5). */
export const traceEntrySchema = z.looseObject({
  seq: count,
  state: text,
  iterationIndex: count,
  attempt: count,
  decision: text.optional(),
  retryCount: count,
  rationale: text.optional(),
  key: text.optional(),
  fingerprint: text.optional(),
  failureKind: z.enum(FAILURE_KINDS).optional(),
  intermittent: z.literal(true).optional(),
  startedAt: time,
  durationMs: z.number().finite(),
  cost: z.number().finite().optional(),
});

/** A finished run's outcome as a checkpoint keeps it (its trace kept beside it). */
export const storedOutcomeSchema = z.looseObject({
  status: z.enum(LOOP_STATUSES),
  ok: z.boolean(),
  iterations: count,
  attempts: count,
  cost: z.number().finite().min(0),
  rationale: text,
  empty: z.looseObject({ reason: text }).optional(),
  error: z
    .looseObject({ kind: z.enum(LOOP_STATUSES), state: text, attempts: count, message: text })
    .optional(),
});

/** The persisted input of a step actor (what a restored in-flight step runs with). */
export const stepInputSchema = z.looseObject({
  iteration: count,
  attempt: count,
  answers: z.array(answerSchema),
  key: text.optional(),
  resumed: z.boolean().optional(),
  deadlineAt: time.nullable().optional(),
});
