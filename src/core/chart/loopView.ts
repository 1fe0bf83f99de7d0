import type { ClarificationAnswer, LoopSettings } from '../vocabulary/config.js';
import type { FailureRecord } from '../vocabulary/failures.js';
import type { LoopOutcome } from '../vocabulary/outcome.js';
import type { TraceEntry } from '../vocabulary/trace.js';
import type { ValidationError, Verdict } from '../vocabulary/validation.js';
import type { LoopContext, LoopLedger, LoopPhase, PendingRequest } from './loopContext.js';

/** Where a run is: working, paused for a person, or finished. */
export type LoopViewStatus = 'running' | 'paused' | 'done';

/**
 * What a loop run holds, read from a live snapshot, a persisted snapshot or a stored checkpoint.
 * The machine's context is private; this is the one model everything outside it reads.
 */
export interface LoopView {
  status: LoopViewStatus;
  /** The state the run is in: a working state, a pause, or the final status. */
  state: string;
  /** The working state the run is in, or last was once it has stopped. */
  phase: LoopPhase;
  input: unknown;
  /** The reproducibility key of the current input (when the trace is on). */
  key: string | undefined;
  candidate: unknown;
  /** The candidate before the current one. */
  previous: unknown;
  verdict: Verdict | undefined;
  /** The last validation error, given to the next attempt. */
  feedback: ValidationError | undefined;
  /** Refine cycles performed. */
  iterations: number;
  /** Attempt invocations, transient retries included. */
  attempts: number;
  cost: number;
  stall: { fingerprint: string | undefined; repeats: number };
  failure: FailureRecord | undefined;
  pending: PendingRequest | undefined;
  trace: readonly TraceEntry[];
  settings: Readonly<LoopSettings>;
  fallbackRuns: number;
  fallbackCandidate: unknown;
  /** The one transient retry of the current step input is spent. */
  transientRetried: boolean;
  /** The absolute deadline of a transient retry's wait. */
  retryAt: number | undefined;
  answers: readonly ClarificationAnswer[];
  empty: { reason: string } | undefined;
  abortReason: string | undefined;
  /** The outcome, once the run is done. */
  outcome: LoopOutcome | undefined;
}

/** The working states in which a loop waits for a person. */
export const PAUSE_STATES: readonly LoopPhase[] = ['awaitingReview', 'awaitingClarification'];

interface SnapshotLike {
  status?: unknown;
  value?: unknown;
  context?: unknown;
  output?: unknown;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/** The snapshot and the trace of a source: a stored checkpoint keeps its trace at the top. */
function partsOf(source: unknown): { snapshot: SnapshotLike; trace: unknown } | undefined {
  const fields = record(source);
  if (!fields) return undefined;
  if ('format' in fields && record(fields.snapshot)) {
    const snapshot = fields.snapshot as SnapshotLike;
    return { snapshot, trace: fields.trace ?? record(snapshot.context)?.trace };
  }
  return { snapshot: fields as SnapshotLike, trace: record(fields.context)?.trace };
}

function isLoopContext(context: unknown): context is LoopContext {
  const fields = record(context);
  return (
    fields !== undefined &&
    typeof fields.retryCount === 'number' &&
    record(fields.settings) !== undefined
  );
}

/**
 * The typed view of a loop run from a live snapshot (`actor.getSnapshot()`), a persisted one
 * (`actor.getPersistedSnapshot()`), or a checkpoint (`decodeCheckpoint(record)`, or its parsed
 * `data`); `undefined` when the source holds no loop.
 * @example const view = loopView(actor.getSnapshot());
 *          if (view?.status === 'paused') ask(view.pending);
 */
export function loopView(source: unknown): LoopView | undefined {
  const parts = partsOf(source);
  const context = parts?.snapshot.context;
  if (!parts || !isLoopContext(context)) return undefined;
  const { snapshot } = parts;
  const ledger: Partial<LoopLedger> = record(context.ledger) ?? {};
  const state =
    typeof snapshot.value === 'string' ? snapshot.value : JSON.stringify(snapshot.value);
  const done = snapshot.status === 'done';
  return {
    status: done ? 'done' : PAUSE_STATES.includes(state as LoopPhase) ? 'paused' : 'running',
    state,
    phase: context.phase,
    input: context.input,
    key: context.key,
    candidate: context.candidate,
    previous: ledger.previous,
    verdict: context.verdict,
    feedback: context.feedback,
    iterations: context.retryCount,
    attempts: context.attempts,
    cost: context.cost,
    stall: context.stall,
    failure: context.failure,
    pending: context.pending,
    trace: Array.isArray(parts.trace) ? (parts.trace as TraceEntry[]) : [],
    settings: context.settings,
    fallbackRuns: ledger.fallbackRuns ?? 0,
    fallbackCandidate: ledger.fallbackCandidate,
    transientRetried: ledger.transientRetried ?? false,
    retryAt: ledger.retryAt,
    answers: ledger.answers ?? [],
    empty: ledger.empty,
    abortReason: ledger.abortReason,
    outcome: done ? (snapshot.output as LoopOutcome | undefined) : undefined,
  };
}

/** The counters and values the run viewer shows, from untrusted JSON: each only if well typed. */
export interface LoopGlance {
  iterations: number | undefined;
  maxRetries: number | undefined;
  candidate: unknown;
  verdict: unknown;
  pending: unknown;
  trace: readonly unknown[];
}

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/**
 * What a snapshot of any machine (sent over a socket: untrusted) shows of a loop; every field is
 * checked, and a machine that is not a loop simply yields nothing.
 * @example const { iterations, maxRetries } = glanceLoop(event.snapshot);
 */
export function glanceLoop(snapshot: unknown): LoopGlance {
  const context = record(record(snapshot)?.context);
  const trace = context?.trace;
  return {
    iterations: count(context?.retryCount),
    maxRetries: count(record(context?.settings)?.maxRetries),
    candidate: context?.candidate,
    verdict: context?.verdict,
    pending: context?.pending,
    trace: Array.isArray(trace) ? trace : [],
  };
}
