import { monotonicClock } from '../vocabulary/clock.js';
import { classifyFailure, type StepName } from '../vocabulary/failures.js';
import { fingerprint } from '../vocabulary/hashing.js';
import type { TraceDecision } from '../vocabulary/statuses.js';
import {
  isClarificationRequest,
  isEmptyResult,
  readStepResult,
} from '../vocabulary/stepResults.js';
import { parseVerdict } from '../vocabulary/validation.js';
import { explain, retryDelay } from './explain.js';
import {
  keyOf,
  type LoopContext,
  type LoopLedger,
  type LoopPhase,
  withEntry,
} from './loopContext.js';
import { withDecisionEntry, withStepEntry } from './withStepEntry.js';

// Pure context updaters: each returns the fields an `assign` in loopMachine.ts changes. A step's
// result and the entry into the next state are one update, because every `assign` copies the
// whole context.

type Update = Partial<LoopContext>;

// A copy of the ledger by V8's clone fast path, then the changes: a second spread of changes of
// many shapes would take the slow path on every step.
const note = (context: LoopContext, changes: Partial<LoopLedger>): LoopLedger =>
  Object.assign({ ...context.ledger }, changes);

/** Enters a working state: the phase, and the time its step starts. */
export function enterPhase(context: LoopContext, phase: LoopPhase): Update {
  const ledger = { ...context.ledger };
  ledger.stepStartedAt = Date.now();
  return { phase, ledger };
}

export function startAttempt(context: LoopContext): Update {
  const update = enterPhase(context, 'attempting');
  update.attempts = context.attempts + 1;
  return update;
}

export function startFallback(context: LoopContext): Update {
  return {
    phase: 'fallingBack',
    ledger: note(context, {
      stepStartedAt: Date.now(),
      fallbackRuns: context.ledger.fallbackRuns + 1,
    }),
  };
}

/** Sums cost without overflowing to Infinity (which JSON would turn into null). */
function addCost(total: number, cost: number): number {
  return Math.min(Number.MAX_VALUE, total + cost);
}

/**
 * A finished step's common bookkeeping, entering `next` (if it is a working state), added to the
 * step's own `update` in place: spreading it into the update instead takes V8's slow path.
 */
function finishStep(
  update: Update,
  context: LoopContext,
  cost: number,
  next: LoopPhase | undefined,
  ledger?: Partial<LoopLedger>,
): Update {
  // one copy of the ledger, by V8's clone fast path; every key is already in it, so the order stays
  const noted = { ...context.ledger };
  noted.transientRetried = false;
  if (ledger !== undefined) Object.assign(noted, ledger);
  update.cost = addCost(context.cost, cost);
  if (next) {
    noted.stepStartedAt = Date.now();
    update.phase = next;
  }
  update.ledger = noted;
  return update;
}

export function acceptAttempt(context: LoopContext, output: unknown, next?: LoopPhase): Update {
  const { value, cost } = readStepResult(output);
  const trace = withStepEntry(context, 'attempting', cost);
  if (isEmptyResult(value)) {
    return finishStep({ trace }, context, cost, next, { empty: { reason: value.reason } });
  }
  if (isClarificationRequest(value)) {
    const { question, options, context: about } = value;
    return {
      ...finishStep({ trace }, context, cost, next),
      pending: {
        kind: 'clarification',
        question: String(question),
        ...(options ? { options: [...options] } : {}),
        ...(about === undefined ? {} : { context: about }),
      },
    };
  }
  return finishStep({ trace, candidate: value }, context, cost, next, {
    previous: context.candidate,
  });
}

export function acceptVerdict(context: LoopContext, output: unknown): Update {
  const { value, cost } = readStepResult(output);
  const verdict = parseVerdict(value);
  const { stall, settings } = context;
  const print =
    settings.stall || settings.trace
      ? fingerprint(settings.stall?.on === 'verdict' ? verdict : [context.candidate, verdict])
      : undefined;
  const repeats = print !== undefined && print === stall.fingerprint ? stall.repeats + 1 : 1;
  const update: Update = {
    verdict,
    feedback: 'error' in verdict && verdict.error ? verdict.error : context.feedback,
    stall: { fingerprint: print, repeats },
    trace: withStepEntry(context, 'validating', cost, print),
  };
  return finishStep(update, context, cost, 'routing');
}

export function acceptRefinement(context: LoopContext, output: unknown): Update {
  const { value, cost } = readStepResult(output);
  const update: Update = {
    input: value,
    key: keyOf(context.settings, value),
    trace: withStepEntry(context, 'refining', cost),
  };
  return finishStep(update, context, cost, undefined);
}

export function acceptFallback(context: LoopContext, output: unknown): Update {
  const { value, cost } = readStepResult(output);
  return finishStep(
    { trace: withStepEntry(context, 'fallingBack', cost) },
    context,
    cost,
    undefined,
    {
      fallbackCandidate: value,
    },
  );
}

export function recordFailure(context: LoopContext, step: StepName, error: unknown): Update {
  const failure = classifyFailure(error, step);
  return {
    failure,
    phase: 'failed',
    trace: withEntry(context, {
      state: context.phase,
      failureKind: failure.kind,
      rationale: failure.message,
      ...(step === 'attempt' ? { key: context.key } : {}),
      startedAt: context.ledger.stepStartedAt,
    }),
  };
}

export function recordDecision(context: LoopContext, decision: TraceDecision): Update {
  if (!context.settings.trace) return {};
  return {
    trace: withDecisionEntry(context, context.phase, decision, explain(decision, context)),
  };
}

/** The `refine` decision: the entry's `retryCount` is the count after it, `iterationIndex` the one before. */
export function countRetry(context: LoopContext): Update {
  const retryCount = context.retryCount + 1;
  const trace = context.settings.trace
    ? withDecisionEntry(context, 'routing', 'refine', explain('refine', context), retryCount)
    : context.trace;
  const update = enterPhase(context, 'refining');
  update.retryCount = retryCount;
  update.trace = trace;
  return update;
}

/** Schedules the retry wait, its end read on the run's clock (`now`; default the monotonic one). */
export function scheduleRetry(context: LoopContext, now = monotonicClock.now()): Update {
  return {
    ledger: note(context, {
      transientRetried: true,
      retryAt: now + retryDelay(context),
    }),
    ...recordDecision(context, 'retry'),
  };
}

export function recordAnswer(context: LoopContext, answer: unknown): Update {
  const question = context.pending?.kind === 'clarification' ? context.pending.question : '';
  return {
    pending: undefined,
    phase: 'attemptGate',
    ledger: note(context, { answers: [...context.ledger.answers, { question, answer }] }),
  };
}

export function applyModification(
  context: LoopContext,
  change: { input?: unknown; candidate?: unknown },
): Update {
  if ('candidate' in change) {
    return {
      pending: undefined,
      candidate: change.candidate,
      phase: 'validating',
      ledger: note(context, { previous: context.candidate, stepStartedAt: Date.now() }),
    };
  }
  return {
    pending: undefined,
    phase: 'attemptGate',
    input: change.input,
    key: keyOf(context.settings, change.input),
  };
}

export function applyReviewRetry(feedback: string | undefined): Update {
  return {
    pending: undefined,
    phase: 'attemptGate',
    ...(feedback === undefined
      ? {}
      : { feedback: { severity: 'correctable', message: String(feedback) } }),
  };
}

export function pauseForReview(
  context: LoopContext,
  reason: 'beforeProceed' | 'afterFailedValidation',
): Update {
  const paused = { ...context, phase: 'awaitingReview' as const };
  return {
    phase: 'awaitingReview',
    pending: { kind: 'review', reason, candidate: context.candidate, verdict: context.verdict },
    ...recordDecision(paused, 'review'),
  };
}

export function pauseForClarification(context: LoopContext): Update {
  const paused = { ...context, phase: 'awaitingClarification' as const };
  return { phase: 'awaitingClarification', ...recordDecision(paused, 'clarify') };
}

export function recordAbort(context: LoopContext, reason: unknown): Update {
  const abortReason = typeof reason === 'string' ? reason.slice(0, 500) : 'loop.abort';
  return { ledger: note(context, { abortReason }) };
}

export function verdictOf(output: unknown) {
  return parseVerdict(readStepResult(output).value);
}
