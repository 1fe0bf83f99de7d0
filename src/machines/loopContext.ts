import type { ClarificationAnswer, LoopSettings } from '../config.js';
import type { FailureRecord } from '../failures.js';
import { reproducibilityKey } from '../hashing.js';
import type { TraceEntry } from '../trace.js';
import type { ValidationError, Verdict } from '../validation.js';

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

/** What a paused loop is waiting for: a person's answer or review. */
export type PendingRequest =
  | { kind: 'clarification'; question: string; options?: readonly string[]; context?: unknown }
  | {
      kind: 'review';
      reason: 'beforeProceed' | 'afterFailedValidation';
      candidate: unknown;
      verdict: Verdict | undefined;
    };

/** The loop machine's context: JSON-safe and bounded (every counter is capped by the settings). */
export interface LoopContext {
  settings: LoopSettings;
  input: unknown;
  key: string | undefined;
  feedback: ValidationError | undefined;
  candidate: unknown;
  previous: unknown;
  verdict: Verdict | undefined;
  fallbackCandidate: unknown;
  retryCount: number;
  attempts: number;
  fallbackRuns: number;
  cost: number;
  failure: FailureRecord | undefined;
  transientRetried: boolean;
  stall: { fingerprint: string | undefined; repeats: number };
  answers: ClarificationAnswer[];
  pending: PendingRequest | undefined;
  empty: { reason: string } | undefined;
  abortReason: string | undefined;
  phase: LoopPhase;
  stepStartedAt: number;
  retryAt: number | undefined;
  trace: TraceEntry[];
}

export function initialContext(settings: LoopSettings, input: unknown): LoopContext {
  return {
    settings,
    input,
    key: keyOf(settings, input),
    feedback: undefined,
    candidate: undefined,
    previous: undefined,
    verdict: undefined,
    fallbackCandidate: undefined,
    retryCount: 0,
    attempts: 0,
    fallbackRuns: 0,
    cost: 0,
    failure: undefined,
    transientRetried: false,
    stall: { fingerprint: undefined, repeats: 0 },
    answers: [],
    pending: undefined,
    empty: undefined,
    abortReason: undefined,
    phase: 'attempting',
    stepStartedAt: Date.now(),
    retryAt: undefined,
    trace: [],
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
