import { z } from 'zod';
import type { AnswerSchemas } from './AnswerSchemas.js';
import type { FailureClassifier, StepName } from './failures.js';
import { plainOptionsKey } from './plainOptionsKey.js';
import { isStandardSchema } from './standardSchema.js';
import type { StepBudget } from './stepBudget.js';
import type { ClarificationRequest, CostedResult, EmptyResult } from './stepResults.js';
import type { ValidationError, ValidationResult } from './validation.js';
import { configErrorFrom } from './zodIssues.js';

export function intRange(min: number, max: number) {
  const error = `must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A week: a live run that needs longer has no business holding a process. */
const MAX_DEADLINE_MS = 604_800_000;
/** The wall-clock budget of a live run when the config gives none: 15 minutes (SPEC §4). */
export const DEFAULT_DEADLINE_MS = 900_000;

const aFunction = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  error: 'must be a function',
});
const aSchema = z.custom<unknown>(isStandardSchema, {
  error: 'must be a Standard Schema (zod 4, valibot, arktype, …)',
});
const flag = z.boolean({ error: 'must be true or false' });

/** The plain (non-function) options of a loop, validated at creation. */
export const loopOptionsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z][\w-]{0,63}$/, {
      error: 'must be a letter followed by up to 63 letters, digits, _ or -',
    })
    .optional(),
  maxRetries: intRange(0, 50).optional(),
  maxAttempts: intRange(1, 100).optional(),
  maxCost: z
    .number({ error: 'must be a finite number > 0' })
    .positive({ error: 'must be a finite number > 0' })
    .finite({ error: 'must be a finite number > 0' })
    .optional(),
  /** Each step's worst-case cost per call: `maxCost` reserves it before the call, `certifyLoop` reads it. */
  costEstimates: z
    .strictObject(
      {
        attempt: z.number().nonnegative().finite(),
        validate: z.number().nonnegative().finite(),
        refine: z.number().nonnegative().finite(),
        fallback: z.number().nonnegative().finite(),
      },
      { error: 'must be { attempt?, validate?, refine?, fallback? } of finite numbers ≥ 0' },
    )
    .partial()
    .optional(),
  idempotent: z
    .union(
      [
        flag,
        z.strictObject({ attempt: flag, validate: flag, refine: flag, fallback: flag }).partial(),
      ],
      {
        error: 'must be true, false or { attempt?, validate?, refine?, fallback? } of booleans',
      },
    )
    .optional(),
  attemptTimeoutMs: intRange(1, 86_400_000).optional(),
  stepTimeoutMs: intRange(1, 86_400_000).optional(),
  retryDelayMs: intRange(0, 3_600_000).optional(),
  deadlineMs: z
    .union([intRange(1, MAX_DEADLINE_MS), z.null()], {
      error: `must be an integer from 1 to ${MAX_DEADLINE_MS} (ms), or null for no deadline`,
    })
    .optional(),
  maxRetryDelayMs: intRange(0, 86_400_000).optional(),
  stall: z
    .union(
      [
        z.literal(false),
        z.strictObject({
          after: intRange(2, 50),
          on: z
            .enum(['candidate-and-verdict', 'verdict'], {
              error: "must be 'candidate-and-verdict' or 'verdict'",
            })
            .optional(),
        }),
      ],
      { error: "must be false or { after: 2–50, on?: 'candidate-and-verdict' | 'verdict' }" },
    )
    .optional(),
  review: z
    .union(
      [
        z.literal(false),
        z.strictObject({ beforeProceed: flag.optional(), afterFailedValidation: flag.optional() }),
      ],
      {
        error: 'must be false or { beforeProceed?: boolean, afterFailedValidation?: boolean }',
      },
    )
    .optional(),
  trace: flag.optional(),
});

const loopConfigSchema = loopOptionsSchema.extend({
  types: z
    .custom<object>((v) => typeof v === 'object' && v !== null, {
      error: 'must be an object of type hints, e.g. { input: {} as Order }',
    })
    .optional(),
  attempt: aFunction,
  validate: aFunction,
  refine: aFunction.optional(),
  fallback: aFunction.optional(),
  classifyFailure: aFunction.optional(),
  answers: z
    .strictObject(
      {
        input: aSchema.optional(),
        candidate: aSchema.optional(),
        clarification: aSchema.optional(),
      },
      { error: 'must be { input?, candidate?, clarification? } of Standard Schemas (e.g. zod)' },
    )
    .optional(),
});

type MaybePromise<T> = T | Promise<T>;

/** What every step receives; frozen, built in one place per step run. */
export interface StepContext<I, C = unknown> {
  readonly input: I;
  readonly feedback: ValidationError | undefined;
  readonly previous: C | undefined;
  readonly iteration: number;
  readonly attempt: number;
  readonly key: string | undefined;
  readonly answers: readonly ClarificationAnswer[];
  /** What is left of the run's budgets as this step starts: refines, attempts, cost, time. */
  readonly budget: StepBudget;
  readonly signal: AbortSignal;
}

export interface ClarificationAnswer {
  question: string;
  answer: unknown;
}

export type AttemptReturn<C> =
  | C
  | EmptyResult
  | ClarificationRequest
  | CostedResult<C | EmptyResult | ClarificationRequest>;

/** A loop's configuration: the steps and the bounds (SPEC §4). */
export interface LoopConfig<I = unknown, C = unknown> extends z.input<typeof loopOptionsSchema> {
  /**
   * Type hints only, like XState's `setup({ types })`: `{ input: {} as Order }` types `ctx.input`
   * where nothing else says it (`createLoopMachine`, a stage loop). Never read at run time.
   */
  types?: { input?: I; candidate?: C };
  /** Its ctx leaves `previous` untyped so TypeScript can infer the candidate type from its return. */
  attempt: (ctx: StepContext<I>) => MaybePromise<AttemptReturn<C>>;
  validate: (
    candidate: C,
    ctx: StepContext<I, C>,
  ) => MaybePromise<ValidationResult | CostedResult<ValidationResult>>;
  refine?: (
    ctx: StepContext<I, C> & { readonly candidate: C; readonly error: ValidationError },
  ) => MaybePromise<I | CostedResult<I>>;
  fallback?: (
    ctx: StepContext<I, C> & {
      readonly partial: C | undefined;
      readonly error: ValidationError | undefined;
    },
  ) => MaybePromise<C | CostedResult<C>>;
  classifyFailure?: FailureClassifier;
  /** Schemas the answers to a paused run must pass (`resumeLoop` refuses the others). */
  answers?: AnswerSchemas<I, C>;
}

/** The resolved, JSON-safe bounds and switches a machine keeps in its context. */
export interface LoopSettings {
  maxRetries: number;
  maxAttempts: number;
  maxCost: number | null;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  attemptTimeoutMs: number | null;
  /** The timeout of validate, refine and fallback; defaults to `attemptTimeoutMs`. */
  stepTimeoutMs: number | null;
  /** The wall-clock budget of the live run (pauses for a person excluded); `null`: none. */
  deadlineMs: number | null;
  stall: { after: number; on: 'candidate-and-verdict' | 'verdict' } | null;
  hasFallback: boolean;
  idempotent: Record<StepName, boolean>;
  review: { beforeProceed: boolean; afterFailedValidation: boolean };
  trace: boolean;
}

export const DEFAULT_MAX_RETRIES = 3;

/** A validator checks and does not act, so it is re-runnable unless the config says otherwise. */
const IDEMPOTENT_BY_DEFAULT: Record<StepName, boolean> = {
  attempt: false,
  validate: true,
  refine: false,
  fallback: false,
};

/** Validates a config (throws `LoopConfigError` naming the field) and resolves its defaults. */
export function resolveConfig<I, C>(config: LoopConfig<I, C>): LoopSettings {
  const key = plainOptionsKey(config, PLAIN_OPTIONS, STEP_FUNCTIONS);
  const known = key === undefined ? undefined : resolved.get(key);
  if (known) return copySettings(known);
  const settings = parseSettings(config);
  if (key !== undefined) {
    if (resolved.size >= 64) resolved.delete(resolved.keys().next().value as string);
    resolved.set(key, copySettings(settings));
  }
  return settings;
}

// Settings of configs keyed by their plain options (plainOptionsKey): a config built per call
// skips the parse. Each caller gets its own copy, so a change to one is nobody else's.
const resolved = new Map<string, LoopSettings>();
const PLAIN_OPTIONS = new Set(Object.keys(loopOptionsSchema.shape));
const STEP_FUNCTIONS = new Set(['attempt', 'validate', 'refine', 'fallback', 'classifyFailure']);

const copySettings = (settings: LoopSettings): LoopSettings => ({
  ...settings,
  stall: settings.stall && { ...settings.stall },
  idempotent: { ...settings.idempotent },
  review: { ...settings.review },
});

function parseSettings<I, C>(config: LoopConfig<I, C>): LoopSettings {
  const parsed = loopConfigSchema.safeParse(config, { reportInput: true });
  if (!parsed.success) {
    throw configErrorFrom('loop config', parsed.error, Object.keys(loopConfigSchema.shape));
  }
  const options = parsed.data;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const idempotent = options.idempotent ?? {};
  const perStep = (step: StepName) =>
    typeof idempotent === 'boolean'
      ? idempotent
      : (idempotent[step] ?? IDEMPOTENT_BY_DEFAULT[step]);
  const stall: { after?: number; on?: 'candidate-and-verdict' | 'verdict' } | false =
    options.stall ?? {};
  const review = options.review || {};
  return {
    maxRetries,
    maxAttempts: options.maxAttempts ?? Math.min(100, 2 * (maxRetries + 1)),
    maxCost: options.maxCost ?? null,
    retryDelayMs: options.retryDelayMs ?? 1000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    attemptTimeoutMs: options.attemptTimeoutMs ?? null,
    stepTimeoutMs: options.stepTimeoutMs ?? options.attemptTimeoutMs ?? null,
    deadlineMs: options.deadlineMs === undefined ? DEFAULT_DEADLINE_MS : options.deadlineMs,
    stall:
      stall === false ? null : { after: stall.after ?? 3, on: stall.on ?? 'candidate-and-verdict' },
    hasFallback: options.fallback !== undefined,
    idempotent: {
      attempt: perStep('attempt'),
      validate: perStep('validate'),
      refine: perStep('refine'),
      fallback: perStep('fallback'),
    },
    review: {
      beforeProceed: review.beforeProceed ?? false,
      afterFailedValidation: review.afterFailedValidation ?? false,
    },
    trace: options.trace ?? true,
  };
}
