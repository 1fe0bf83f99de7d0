import type { TraceDecision } from '../vocabulary/statuses.js';
import type { TraceEntry } from '../vocabulary/trace.js';
import { type LoopContext, withEntry } from './loopContext.js';

// The common trace entries written as one object literal each, in `withEntry`'s key order: V8
// then keeps every field in the object itself, where `withEntry`'s spread leaves three in a
// separate property array (120 B an entry against 96 B). Rarer ones (a cost, an intermittent
// success) still go through `withEntry`.

type StepState = 'attempting' | 'validating' | 'refining' | 'fallingBack';

/**
 * Appends the entry of a finished step (a no-op when the trace is off): attempts and validations
 * carry the input's key, validations the fingerprint too.
 */
export function withStepEntry(
  context: LoopContext,
  state: StepState,
  cost: number,
  fingerprint?: string | undefined,
): TraceEntry[] {
  const { trace, ledger } = context;
  if (!context.settings.trace) return trace;
  const startedAt = ledger.stepStartedAt;
  if (cost > 0 || ledger.transientRetried) return rareStepEntry(context, state, cost, fingerprint);
  const now = Date.now();
  const seq = trace.length + 1;
  const { retryCount, attempts: attempt, key } = context;
  const durationMs = Math.max(0, now - startedAt);
  let entry: TraceEntry;
  if (state === 'attempting') {
    entry = {
      seq,
      iterationIndex: retryCount,
      attempt,
      retryCount,
      state,
      key,
      startedAt,
      durationMs,
    };
  } else if (state === 'validating') {
    entry = {
      seq,
      iterationIndex: retryCount,
      attempt,
      retryCount,
      state,
      key,
      fingerprint,
      startedAt,
      durationMs,
    };
  } else {
    entry = { seq, iterationIndex: retryCount, attempt, retryCount, state, startedAt, durationMs };
  }
  return [...trace, entry];
}

function rareStepEntry(
  context: LoopContext,
  state: StepState,
  cost: number,
  fingerprint: string | undefined,
): TraceEntry[] {
  const timing: { startedAt: number; cost?: number; intermittent?: true } = {
    startedAt: context.ledger.stepStartedAt,
  };
  if (cost > 0) timing.cost = cost;
  if (context.ledger.transientRetried) timing.intermittent = true;
  if (state === 'attempting') return withEntry(context, { state, key: context.key, ...timing });
  if (state === 'validating') {
    return withEntry(context, { state, key: context.key, fingerprint, ...timing });
  }
  return withEntry(context, { state, ...timing });
}

/**
 * Appends a routing decision (a no-op when the trace is off), stamped now; `retryCount` is the
 * count it records (a refine's is the count after it).
 */
export function withDecisionEntry(
  context: LoopContext,
  state: string,
  decision: TraceDecision,
  rationale: string,
  retryCount = context.retryCount,
): TraceEntry[] {
  const { trace } = context;
  if (!context.settings.trace) return trace;
  const entry: TraceEntry = {
    seq: trace.length + 1,
    iterationIndex: context.retryCount,
    attempt: context.attempts,
    retryCount,
    state,
    decision,
    rationale,
    startedAt: Date.now(),
    durationMs: 0,
  };
  return [...trace, entry];
}
