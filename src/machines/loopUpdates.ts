import { classifyFailure, type StepName } from '../failures.js';
import { fingerprint } from '../hashing.js';
import type { TraceDecision } from '../statuses.js';
import { isClarificationRequest, isEmptyResult, readStepResult } from '../stepResults.js';
import { parseVerdict } from '../validation.js';
import { explain, retryDelay } from './explain.js';
import { keyOf, type LoopContext, type LoopPhase, withEntry } from './loopContext.js';

// Pure context updaters: each returns the fields an `assign` in loopMachine.ts changes.

export function enterPhase(phase: LoopPhase): Partial<LoopContext> {
  return { phase, stepStartedAt: Date.now() };
}

export function startAttempt(context: LoopContext): Partial<LoopContext> {
  return { ...enterPhase('attempting'), attempts: context.attempts + 1 };
}

export function startFallback(context: LoopContext): Partial<LoopContext> {
  return { ...enterPhase('fallingBack'), fallbackRuns: context.fallbackRuns + 1 };
}

/** Sums cost without overflowing to Infinity (which JSON would turn into null). */
function addCost(total: number, cost: number): number {
  return Math.min(Number.MAX_VALUE, total + cost);
}

function stepEntry(context: LoopContext, cost: number) {
  return {
    startedAt: context.stepStartedAt,
    ...(cost > 0 ? { cost } : {}),
    ...(context.transientRetried ? { intermittent: true as const } : {}),
  };
}

export function acceptAttempt(context: LoopContext, output: unknown): Partial<LoopContext> {
  const { value, cost } = readStepResult(output);
  const base = {
    cost: addCost(context.cost, cost),
    transientRetried: false,
    trace: withEntry(context, {
      state: 'attempting',
      key: context.key,
      ...stepEntry(context, cost),
    }),
  };
  if (isEmptyResult(value)) return { ...base, empty: { reason: value.reason } };
  if (isClarificationRequest(value)) {
    const { question, options, context: about } = value;
    return {
      ...base,
      pending: {
        kind: 'clarification',
        question: String(question),
        ...(options ? { options: [...options] } : {}),
        ...(about === undefined ? {} : { context: about }),
      },
    };
  }
  return { ...base, previous: context.candidate, candidate: value };
}

export function acceptVerdict(context: LoopContext, output: unknown): Partial<LoopContext> {
  const { value, cost } = readStepResult(output);
  const verdict = parseVerdict(value);
  const { stall, settings } = context;
  const print =
    settings.stall || settings.trace
      ? fingerprint(settings.stall?.on === 'verdict' ? verdict : [context.candidate, verdict])
      : undefined;
  const repeats = print !== undefined && print === stall.fingerprint ? stall.repeats + 1 : 1;
  return {
    verdict,
    feedback: 'error' in verdict && verdict.error ? verdict.error : context.feedback,
    cost: addCost(context.cost, cost),
    transientRetried: false,
    stall: { fingerprint: print, repeats },
    trace: withEntry(context, {
      state: 'validating',
      key: context.key,
      fingerprint: print,
      ...stepEntry(context, cost),
    }),
  };
}

export function acceptRefinement(context: LoopContext, output: unknown): Partial<LoopContext> {
  const { value, cost } = readStepResult(output);
  return {
    input: value,
    key: keyOf(context.settings, value),
    cost: addCost(context.cost, cost),
    transientRetried: false,
    trace: withEntry(context, { state: 'refining', ...stepEntry(context, cost) }),
  };
}

export function acceptFallback(context: LoopContext, output: unknown): Partial<LoopContext> {
  const { value, cost } = readStepResult(output);
  return {
    fallbackCandidate: value,
    cost: addCost(context.cost, cost),
    trace: withEntry(context, { state: 'fallingBack', ...stepEntry(context, cost) }),
  };
}

export function recordFailure(
  context: LoopContext,
  step: StepName,
  error: unknown,
): Partial<LoopContext> {
  const failure = classifyFailure(error, step);
  return {
    failure,
    phase: 'failed',
    trace: withEntry(context, {
      state: context.phase,
      failureKind: failure.kind,
      rationale: failure.message,
      ...(step === 'attempt' ? { key: context.key } : {}),
      startedAt: context.stepStartedAt,
    }),
  };
}

export function recordDecision(
  context: LoopContext,
  decision: TraceDecision,
): Partial<LoopContext> {
  return {
    trace: withEntry(context, {
      state: context.phase,
      decision,
      rationale: explain(decision, context),
    }),
  };
}

/** The `refine` decision: the entry's `retryCount` is the count after it, `iterationIndex` the one before. */
export function countRetry(context: LoopContext): Partial<LoopContext> {
  const retryCount = context.retryCount + 1;
  const rationale = explain('refine', context);
  return {
    retryCount,
    trace: withEntry(context, { state: 'routing', decision: 'refine', rationale, retryCount }),
  };
}

export function scheduleRetry(context: LoopContext): Partial<LoopContext> {
  return {
    transientRetried: true,
    retryAt: Date.now() + retryDelay(context),
    ...recordDecision(context, 'retry'),
  };
}

export function recordAnswer(context: LoopContext, answer: unknown): Partial<LoopContext> {
  const question = context.pending?.kind === 'clarification' ? context.pending.question : '';
  return {
    answers: [...context.answers, { question, answer }],
    pending: undefined,
    phase: 'attemptGate',
  };
}

export function applyModification(
  context: LoopContext,
  change: { input?: unknown; candidate?: unknown },
) {
  const pending = { pending: undefined, phase: 'attemptGate' as const };
  if ('candidate' in change)
    return { ...pending, previous: context.candidate, candidate: change.candidate };
  return { ...pending, input: change.input, key: keyOf(context.settings, change.input) };
}

export function applyReviewRetry(feedback: string | undefined): Partial<LoopContext> {
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
): Partial<LoopContext> {
  const paused = { ...context, phase: 'awaitingReview' as const };
  return {
    phase: 'awaitingReview',
    pending: { kind: 'review', reason, candidate: context.candidate, verdict: context.verdict },
    ...recordDecision(paused, 'review'),
  };
}

export function pauseForClarification(context: LoopContext): Partial<LoopContext> {
  return { phase: 'awaitingClarification', ...recordDecision(context, 'clarify') };
}

export function recordAbort(reason: unknown): Partial<LoopContext> {
  return { abortReason: typeof reason === 'string' ? reason.slice(0, 500) : 'loop.abort' };
}

export function failedIn(context: LoopContext, step: StepName): boolean {
  return context.failure?.step === step;
}

export function verdictOf(output: unknown) {
  return parseVerdict(readStepResult(output).value);
}
