import type { ClarificationAnswer, LoopSettings } from '../vocabulary/config.js';
import type { FailureRecord, StepName } from '../vocabulary/failures.js';
import { reproducibilityKey } from '../vocabulary/hashing.js';
import type { TraceEntry } from '../vocabulary/trace.js';
import type { ValidationError, Verdict } from '../vocabulary/validation.js';
import { type DeadlineLedger, startDeadline } from './deadline.js';

/** The working (non-final) states of the loop machine. */
export type LoopPhase =
  | 'attempting'
  | 'validating'
  | 'routing'
  | 'refining'
  | 'fallingBack'
  | 'failed'
  | 'waitingToRetry'
  | 'attemptGate'
  | 'awaitingReview'
  | 'awaitingClarification';

/** The working state that runs each step (its actor is invoked there under the step's name). */
export const STEP_STATE = {
  attempt: 'attempting',
  validate: 'validating',
  refine: 'refining',
  fallback: 'fallingBack',
} as const satisfies Record<StepName, LoopPhase>;

/** The step a working state runs, if it runs one. */
export function stepOfState(state: unknown): StepName | undefined {
  return (Object.keys(STEP_STATE) as StepName[]).find((step) => STEP_STATE[step] === state);
}

/** What a paused loop is waiting for: a person's answer or review. */
export type PendingRequest<C = unknown> =
  | { kind: 'clarification'; question: string; options?: readonly string[]; context?: unknown }
  | {
      kind: 'review';
      reason: 'beforeProceed' | 'afterFailedValidation';
      candidate: C;
      verdict: Verdict | undefined;
    };

/**
 * The loop machine's context: JSON-safe and bounded (every counter is capped by the settings).
 * It keeps few top-level fields on purpose: XState copies the context with `Object.assign` on
 * every `assign`, and V8 turns a copy of more than ~19 fields into a slow dictionary object.
 */
export interface LoopContext {
  settings: LoopSettings;
  input: unknown;
  key: string | undefined;
  candidate: unknown;
  verdict: Verdict | undefined;
  feedback: ValidationError | undefined;
  retryCount: number;
  attempts: number;
  cost: number;
  stall: { fingerprint: string | undefined; repeats: number };
  failure: FailureRecord | undefined;
  pending: PendingRequest | undefined;
  /** The working state the loop is in (or last was, once it has stopped). */
  phase: LoopPhase;
  trace: TraceEntry[];
  ledger: LoopLedger;
}

/** What the loop keeps between steps besides its main fields. */
export interface LoopLedger extends DeadlineLedger {
  /** When the current step started (ms since the epoch). */
  stepStartedAt: number;
  /** The candidate before the current one. */
  previous: unknown;
  fallbackCandidate: unknown;
  fallbackRuns: number;
  /** The one transient retry of the current step input is spent. */
  transientRetried: boolean;
  /** The absolute deadline of a transient retry's wait. */
  retryAt: number | undefined;
  answers: ClarificationAnswer[];
  empty: { reason: string } | undefined;
  abortReason: string | undefined;
}

/**
 * A new run's context; `startedAt` (default now, on the monotonic clock) is when its deadline
 * started counting.
 */
export function initialContext(
  settings: LoopSettings,
  input: unknown,
  startedAt?: number,
): LoopContext {
  return {
    settings,
    input,
    key: keyOf(settings, input),
    candidate: undefined,
    verdict: undefined,
    feedback: undefined,
    retryCount: 0,
    attempts: 0,
    cost: 0,
    stall: { fingerprint: undefined, repeats: 0 },
    failure: undefined,
    pending: undefined,
    phase: 'attempting',
    trace: [],
    ledger: {
      stepStartedAt: startedAt ?? Date.now(),
      previous: undefined,
      fallbackCandidate: undefined,
      fallbackRuns: 0,
      transientRetried: false,
      retryAt: undefined,
      answers: [],
      empty: undefined,
      abortReason: undefined,
      ...startDeadline(settings.deadlineMs, startedAt),
    },
  };
}

export function keyOf(settings: LoopSettings, input: unknown): string | undefined {
  return settings.trace ? reproducibilityKey(input) : undefined;
}

/** Appends a trace entry (a no-op when the trace is off); `seq` and counters come from context. */
export function withEntry(
  context: LoopContext,
  entry: Omit<
    TraceEntry,
    'seq' | 'iterationIndex' | 'attempt' | 'retryCount' | 'startedAt' | 'durationMs'
  > &
    Partial<Pick<TraceEntry, 'retryCount' | 'startedAt' | 'durationMs'>>,
): TraceEntry[] {
  if (!context.settings.trace) return context.trace;
  const now = Date.now();
  const startedAt = entry.startedAt ?? now;
  return [
    ...context.trace,
    {
      seq: context.trace.length + 1,
      iterationIndex: context.retryCount,
      attempt: context.attempts,
      retryCount: context.retryCount,
      ...entry,
      startedAt,
      durationMs: entry.durationMs ?? Math.max(0, now - startedAt),
    },
  ];
}
