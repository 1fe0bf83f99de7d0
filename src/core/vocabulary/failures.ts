import { z } from 'zod';
import { describeValue } from './describeValue.js';
import { type FailureFacts, failureFacts } from './failureFacts.js';

export const FAILURE_KINDS = ['policy', 'permanent', 'transient', 'uncertain'] as const;
/** How a thrown failure is treated: SPEC §2. */
export type FailureKind = (typeof FAILURE_KINDS)[number];
/** Whether the failed step is known to have had no effect (`none`) or might have acted (`unknown`). */
export type FailureEffect = 'none' | 'unknown';

const BRAND = Symbol.for('loopchart.LoopStepFailure');

/** An error thrown by a step that says how loopchart should treat it. */
export class LoopStepFailure extends Error {
  override readonly name = 'LoopStepFailure';
  readonly kind: FailureKind;
  readonly effect: FailureEffect;
  readonly retryAfterMs: number | undefined;
  readonly [BRAND] = true;

  constructor(
    kind: FailureKind,
    message: string,
    options: { effect?: FailureEffect; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.effect = options.effect ?? (kind === 'transient' ? 'unknown' : 'none');
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True for a typed failure made by one of the helpers, even from another copy of loopchart. */
export function isLoopStepFailure(error: unknown): error is LoopStepFailure {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/**
 * A denial (authorization, refused action, guardrail): the loop stops as `policy_stop`, never retried.
 * @example throw policyRejection('the user may not delete invoices');
 */
export function policyRejection(message: string, options?: { cause?: unknown }): LoopStepFailure {
  return new LoopStepFailure('policy', message, options);
}

/**
 * Evidence that the same request cannot succeed: the loop stops as `permanent_failure`.
 * @example throw permanentFailure('the record does not exist');
 */
export function permanentFailure(message: string, options?: { cause?: unknown }): LoopStepFailure {
  return new LoopStepFailure('permanent', message, options);
}

/**
 * A temporary failure. Retried once on identical input only if `effect` is `'none'` (or the step is
 * idempotent), after `retryAfterMs` (or the loop's `retryDelayMs`).
 * @example throw transientFailure('429 Too Many Requests', { effect: 'none', retryAfterMs: 2000 });
 */
export function transientFailure(
  message: string,
  options: { effect?: FailureEffect; retryAfterMs?: number; cause?: unknown } = {},
): LoopStepFailure {
  return new LoopStepFailure('transient', message, options);
}

/**
 * The step may have acted before failing: `unknown_outcome`, unless the step is idempotent.
 * @example throw uncertainSideEffect('the payment request timed out after it was sent');
 */
export function uncertainSideEffect(
  message: string,
  options?: { cause?: unknown },
): LoopStepFailure {
  return new LoopStepFailure('uncertain', message, { ...options, effect: 'unknown' });
}

/** What a user `classifyFailure` may return: a kind, or a kind with the effect and delay it knows. */
export type FailureClassification =
  | FailureKind
  | { kind: FailureKind; effect?: FailureEffect; retryAfterMs?: number };

/** Classifies a thrown value; returning `undefined` falls back to the default classification. */
export type FailureClassifier = (error: unknown) => FailureClassification | undefined;

/** The JSON-safe record of a classified failure that the machine keeps in context. */
export interface FailureRecord {
  step: StepName;
  kind: FailureKind;
  effect: FailureEffect;
  retryAfterMs?: number;
  message: string;
  name?: string;
  facts?: FailureFacts;
  /** The run's `deadlineMs` ran out while this step was in flight (or due). */
  deadline?: true;
  /** The step was not called: its cost reservation would pass `maxCost`. */
  budget?: true;
  /** With `deadline`: the step had not begun (it was waiting for its checkpoint to be saved). */
  notBegun?: true;
}

/** `LoopError.cause`: what failed, how it was classified, and the failure's JSON-safe facts. */
export interface FailureCause extends FailureFacts {
  step: StepName;
  kind: FailureKind;
  message: string;
  name?: string;
}

/** The `cause` an outcome reports for a recorded failure. */
export function failureCause({ step, kind, message, name, facts }: FailureRecord): FailureCause {
  return { step, kind, message, ...(name ? { name } : {}), ...facts };
}

export type StepName = 'attempt' | 'validate' | 'refine' | 'fallback';

const classificationSchema = z.union([
  z.enum(FAILURE_KINDS),
  z.object({
    kind: z.enum(FAILURE_KINDS),
    effect: z.enum(['none', 'unknown']).optional(),
    retryAfterMs: z.number().finite().nonnegative().optional(),
  }),
]);

/** The default classifier: typed failures keep their kind; anything else is `permanent`. */
export const defaultClassifyFailure: FailureClassifier = (error) =>
  isLoopStepFailure(error)
    ? { kind: error.kind, effect: error.effect, retryAfterMs: error.retryAfterMs }
    : 'permanent';

/**
 * Classifies any thrown value into a `FailureRecord` without ever throwing: a classifier that throws
 * or answers nonsense makes the failure `permanent`.
 */
export function classifyFailure(
  error: unknown,
  step: StepName,
  classify: FailureClassifier = defaultClassifyFailure,
): FailureRecord {
  if (isFailureRecord(error)) return error;
  const { message, name } = readError(error);
  const facts = failureFacts(error);
  const known = { ...(name ? { name } : {}), ...(facts ? { facts } : {}) };
  let answer: unknown;
  let fromClassifier = false;
  try {
    const own = classify === defaultClassifyFailure ? undefined : classify(error);
    fromClassifier = own !== undefined;
    answer = own ?? defaultClassifyFailure(error);
  } catch (classifierError) {
    return {
      step,
      kind: 'permanent',
      effect: 'unknown',
      message: `${message} (classifyFailure threw: ${readError(classifierError).message})`,
      ...known,
    };
  }
  const parsed = classificationSchema.safeParse(answer);
  if (!parsed.success) {
    return {
      step,
      kind: 'permanent',
      effect: 'unknown',
      message: fromClassifier
        ? `${message} (classifyFailure returned ${describeValue(answer)}, not a failure kind)`
        : `${message} (${invalidTypedFailure(answer)})`,
      ...known,
    };
  }
  const value = typeof parsed.data === 'string' ? { kind: parsed.data } : parsed.data;
  const typed = isLoopStepFailure(error) ? error : undefined;
  const effect = value.effect ?? typed?.effect ?? 'unknown';
  const retryAfterMs = value.retryAfterMs ?? typed?.retryAfterMs;
  return {
    step,
    kind: value.kind,
    effect: value.kind === 'uncertain' ? 'unknown' : effect,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    message,
    ...known,
  };
}

/** Why a typed failure the step threw cannot be used as it is (no classifier was involved). */
function invalidTypedFailure(answer: unknown): string {
  const { kind, retryAfterMs } = (answer ?? {}) as { kind?: unknown; retryAfterMs?: unknown };
  if (!(FAILURE_KINDS as readonly unknown[]).includes(kind)) {
    return `the failure it threw has kind ${describeValue(kind)}, not one of ${FAILURE_KINDS.join(', ')}`;
  }
  return `the ${String(kind)} failure it threw asks to retry after ${describeValue(retryAfterMs)} ms; retryAfterMs must be a finite number ≥ 0`;
}

// Records this module classified; a module-private set, so a thrown object cannot forge one.
const classified = new WeakSet<object>();

/** Marks a record so that `classifyFailure` passes it through when an actor rethrows it. */
export function markFailureRecord(record: FailureRecord): FailureRecord {
  const marked = { ...record };
  classified.add(marked);
  return marked;
}

function isFailureRecord(error: unknown): error is FailureRecord {
  return typeof error === 'object' && error !== null && classified.has(error);
}

/** Reads a message and a name from any thrown value, including ones whose getters throw. */
export function readError(error: unknown): { message: string; name?: string } {
  try {
    if (error instanceof Error) {
      const name = typeof error.name === 'string' ? error.name : undefined;
      const message =
        typeof error.message === 'string' ? error.message : describeValue(error.message);
      return { message: message.slice(0, 2000), ...(name ? { name } : {}) };
    }
    if (typeof error === 'string') return { message: error.slice(0, 2000) };
    return { message: `a non-Error value was thrown: ${describeValue(error)}` };
  } catch {
    return { message: 'a value was thrown whose properties cannot be read' };
  }
}
