import { monotonicClock } from '../vocabulary/clock.js';
import { type FailureRecord, markFailureRecord, type StepName } from '../vocabulary/failures.js';

// The wall-clock budget of a live run (SPEC §3), measured on the monotonic clock (clock.ts). While
// the run works, the context holds the absolute time it ends (`deadlineAt`), so a checkpoint
// restored after a crash keeps counting the downtime; while it waits for a person, it holds the
// time left instead (`deadlineLeftMs`), which the answer turns back into an absolute time. Steps,
// retry waits and the runner's saves read it.

const BRAND = Symbol.for('loopchart.DeadlineExceeded');

/**
 * How long past a run's deadline loopchart still waits on the outside world — a save, a load, an
 * answer check — before it settles without it (SPEC §14). A save of the stop itself comes after
 * the deadline by nature, and a store that answers in a few hundred ms is slow, not gone.
 */
export const GRACE_MS = 500;

/** What the loop context keeps of its deadline (both `null` for `deadlineMs: null`). */
export interface DeadlineLedger {
  /** When the live run must have ended, in ms since the epoch; `null` while paused or unbounded. */
  deadlineAt: number | null;
  /** The live time left, kept while the run waits for a person. */
  deadlineLeftMs: number | null;
  /** Set when the deadline ended the run: the step in flight then, if any. */
  deadlineHit?: { inFlight: StepName | null };
}

/** The deadline fields of a new run's context. */
export function startDeadline(
  deadlineMs: number | null,
  now = monotonicClock.now(),
): DeadlineLedger {
  return { deadlineAt: deadlineMs === null ? null : now + deadlineMs, deadlineLeftMs: null };
}

/**
 * Entering a pause for a person: the clock stops, the time left is kept (never below `floor`; an
 * engine that replays a pause late keeps the overrun, which the pause's journalled length repays).
 */
export function freezeDeadline<L extends DeadlineLedger>(
  ledger: L,
  now = monotonicClock.now(),
  floor = 0,
): L {
  if (ledger.deadlineAt === null) return ledger;
  return { ...ledger, deadlineAt: null, deadlineLeftMs: Math.max(floor, ledger.deadlineAt - now) };
}

/** Leaving a pause: the clock runs again with the time that was left. */
export function thawDeadline<L extends DeadlineLedger>(ledger: L, now = monotonicClock.now()): L {
  if (ledger.deadlineLeftMs === null) return ledger;
  return { ...ledger, deadlineAt: now + ledger.deadlineLeftMs, deadlineLeftMs: null };
}

/** The run stopped at its deadline: the step in flight then (its failure says so), if any. */
export function hitDeadline<L extends DeadlineLedger>(
  ledger: L,
  failure: { step: StepName; deadline?: true; notBegun?: true } | undefined,
): L {
  const inFlight = failure?.deadline && !failure.notBegun ? failure.step : null;
  return { ...ledger, deadlineHit: { inFlight } };
}

/** Milliseconds left before `deadlineAt` (never negative); `null` when there is no deadline. */
export function timeLeft(
  deadlineAt: number | null | undefined,
  now = monotonicClock.now(),
): number | null {
  return deadlineAt === null || deadlineAt === undefined ? null : Math.max(0, deadlineAt - now);
}

/**
 * Thrown into a step when the run's deadline passes while it is in flight, or before it began
 * (`began` false: it was due, or waiting for its checkpoint to be saved).
 */
export class DeadlineExceeded extends Error {
  override readonly name = 'LoopDeadline';
  readonly step: StepName;
  readonly began: boolean;
  readonly [BRAND] = true;

  constructor(step: StepName, began = true) {
    super(
      began
        ? `${step} was still in flight when the run's deadlineMs ran out; its signal was aborted`
        : `${step} had not begun when the run's deadlineMs ran out (it was due, or waiting for its checkpoint to be saved)`,
    );
    this.step = step;
    this.began = began;
  }
}

/** True for the error a deadline aborts a step with (even from another copy of loopchart). */
export function isDeadlineExceeded(error: unknown): error is DeadlineExceeded {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/**
 * The failure record of a step the deadline cut off, marked as classified: a deadline is
 * loopchart's own stop, so no `classifyFailure` may turn it into something to retry.
 */
export function deadlineRecord(error: DeadlineExceeded): FailureRecord {
  return markFailureRecord({
    step: error.step,
    kind: error.began ? 'uncertain' : 'transient',
    effect: error.began ? 'unknown' : 'none',
    message: error.message,
    name: error.name,
    deadline: true,
    ...(error.began ? {} : { notBegun: true as const }),
  });
}
