import { type AnyActorRef, fromPromise } from 'xstate';
import { type Clock, monotonicClock } from '../vocabulary/clock.js';
import type { ClarificationAnswer, LoopConfig, LoopSettings } from '../vocabulary/config.js';
import {
  classifyFailure,
  type FailureClassifier,
  type FailureRecord,
  LoopStepFailure,
  markFailureRecord,
  type StepName,
  transientFailure,
  uncertainSideEffect,
} from '../vocabulary/failures.js';
import { stepBudget } from '../vocabulary/stepBudget.js';
import { missingResult, readStepResult, stepOutput } from '../vocabulary/stepResults.js';
import type { ValidationError } from '../vocabulary/validation.js';
import { type TimeLimit, withLazySignal, withTimeLimit } from '../vocabulary/withTimeLimit.js';
import { reservationRefusal } from './costReservation.js';
import { DeadlineExceeded, deadlineRecord, isDeadlineExceeded, timeLeft } from './deadline.js';
import { stepContext } from './stepContext.js';
import type { StepGate } from './stepGate.js';

/** The JSON-safe input every step actor is invoked with (persisted with an in-flight step). */
export interface StepInput {
  input: unknown;
  feedback: ValidationError | undefined;
  previous: unknown;
  candidate: unknown;
  iteration: number;
  attempt: number;
  key: string | undefined;
  answers: ClarificationAnswer[];
  /** Set by `resumeLoop` on a step that was in flight when its checkpoint was taken. */
  resumed?: boolean;
  /** When the run's deadline passes (ms since the epoch), or `null` for none. */
  deadlineAt?: number | null;
  /** The cost the run has reported so far. */
  cost?: number;
}

/** Thrown by loopchart when a step runs past its timeout: transient, effect unknown. */
export function stepTimeout(step: StepName, ms: number): LoopStepFailure {
  const option = step === 'attempt' ? 'attemptTimeoutMs' : 'stepTimeoutMs';
  const failure = transientFailure(`${step} did not finish within ${option} (${ms} ms)`, {
    effect: 'unknown',
  });
  Object.defineProperty(failure, 'name', {
    value: step === 'attempt' ? 'LoopAttemptTimeout' : 'LoopStepTimeout',
  });
  return failure;
}

type StepRunner = (ctx: Record<string, unknown>) => unknown;

/** A run's step functions, as the step actors call them. */
export interface RunSteps {
  attempt: StepRunner;
  validate: StepRunner;
  refine: StepRunner;
  fallback: StepRunner;
  classify: FailureClassifier | undefined;
  /** Where a checkpointed run's steps wait for the save before them. */
  gate?: StepGate | undefined;
  /** What the run's deadline and timeouts are measured on. */
  clock: Clock;
  /** The per-call costs `maxCost` reserves before each step (`costEstimates`). */
  estimates?: Partial<Record<StepName, number>> | undefined;
}

/** The steps a loop actor was started with (`{ input, steps }`), if any. */
export function givenSteps(loop: AnyActorRef | undefined): RunSteps | undefined {
  const options = (loop as { options?: { input?: { steps?: RunSteps } } } | undefined)?.options;
  return options?.input?.steps;
}

/** The steps a run runs: those it was started with, else the chart's own; a chart with neither fails the step. */
export function stepsOfRun(loop: AnyActorRef | undefined, own: RunSteps | undefined): RunSteps {
  const steps = givenSteps(loop) ?? own;
  if (!steps) {
    throw new LoopStepFailure(
      'permanent',
      'loopchart: this chart has no steps of its own: start it with { input, steps: plan.steps }, or run plan.chart',
    );
  }
  return steps;
}

/**
 * Wraps a user step as a promise actor: builds one frozen ctx, honours the actor's `signal` and the
 * timeout, checks reported cost, and turns every throw into a classified `FailureRecord`.
 */
export function stepActor(step: StepName, settings: LoopSettings, own: RunSteps | undefined) {
  return fromPromise<unknown, StepInput>(({ input, signal, self }) =>
    runOneStep(step, () => stepsOfRun(self._parent, own), settings, input, signal),
  );
}

/**
 * One step as a step actor runs it: the step's output, or a thrown marked `FailureRecord` (a
 * step the deadline cut off, or the user's failure classified). Engines that journal a step run
 * this inside their own step, so the timeout and the deadline are part of what they record.
 */
export async function runOneStep(
  step: StepName,
  stepsOf: () => RunSteps,
  settings: LoopSettings,
  input: StepInput,
  signal: AbortSignal,
): Promise<unknown> {
  const timeoutMs = step === 'attempt' ? settings.attemptTimeoutMs : settings.stepTimeoutMs;
  let classify: FailureClassifier | undefined;
  try {
    const steps = stepsOf();
    classify = steps.classify;
    const { clock } = steps;
    const run = steps[step];
    if (input.resumed && !isIdempotent(step, steps, settings)) {
      throw uncertainSideEffect(
        `${step} was in flight when the run was checkpointed; it is not idempotent, so it was not run again`,
      );
    }
    // a resumed step was in flight when its process died: it may have begun there
    const began = input.resumed === true;
    // until it passes the gate an attempt has not begun: a stop meanwhile (an abort, the
    // budget's refusal) does not count it
    if (step === 'attempt' && !began) steps.gate?.attemptWaits(input.attempt);
    if (signal.aborted) throw signal.reason;
    const refusal = reservationRefusal(
      step,
      steps.estimates?.[step],
      input.cost ?? 0,
      settings.maxCost,
    );
    if (refusal) throw refusal;
    if (steps.gate) await passGate(steps.gate, { step, input, signal, began, clock });
    const left = timeLeft(input.deadlineAt, clock.now());
    if (left === 0) throw new DeadlineExceeded(step, began);
    // called synchronously as the actor starts, so a step counted as started has really run
    const budget = stepBudget(settings, input, left);
    const start = (stepSignal: () => AbortSignal) => run(stepContext(input, stepSignal, budget));
    const limit = stepLimit(step, timeoutMs, left, signal, clock);
    const raw = await (limit === null ? start(() => signal) : withLazySignal(start, limit));
    const read = readStepResult(raw);
    if (read.costProblem) throw new LoopStepFailure('permanent', `${step} ${read.costProblem}`);
    const missing = missingResult(step, read.value);
    if (missing) throw new LoopStepFailure('permanent', missing);
    // only an attempt may return an empty result or a question
    return stepOutput(read, step === 'attempt');
  } catch (error) {
    if (isDeadlineExceeded(error)) throw deadlineRecord(error);
    throw markFailureRecord(classifyFailure(error, step, classify));
  }
}

/**
 * Waits for the checkpoint before the step to be saved, unless the run's deadline passes first:
 * until then the step has not begun (its own timeout has not started; the deadline has).
 */
async function passGate(
  gate: StepGate,
  at: {
    step: StepName;
    input: StepInput;
    signal: AbortSignal;
    began: boolean;
    clock: Clock;
  },
): Promise<void> {
  const { step, input, began, clock } = at;
  const waiting = step === 'attempt' && !began;
  try {
    const left = timeLeft(input.deadlineAt, clock.now());
    const pass = (signal: AbortSignal) => gate.pass(signal);
    await (left === null
      ? pass(at.signal)
      : withTimeLimit(pass, {
          ms: left,
          timeout: () => new DeadlineExceeded(step, began),
          signal: at.signal,
          clock,
        }));
  } finally {
    if (waiting) gate.attemptPassed(input.attempt);
  }
}

/** The step's own timeout or what is left of the deadline, whichever ends first. */
function stepLimit(
  step: StepName,
  timeoutMs: number | null,
  left: number | null,
  signal: AbortSignal,
  clock: Clock,
): TimeLimit | null {
  if (left !== null && (timeoutMs === null || left < timeoutMs)) {
    return { ms: left, timeout: () => new DeadlineExceeded(step), signal, clock };
  }
  if (timeoutMs === null) return null;
  return { ms: timeoutMs, timeout: () => stepTimeout(step, timeoutMs), signal, clock };
}

/**
 * The retry wait, as an actor with an absolute end so a restored run waits only the remainder.
 * It is cut short by the run's deadline, and then says so (`{ deadline: true }`).
 */
export function retryDelayActor(own: RunSteps | undefined) {
  return fromPromise<{ deadline: boolean }, { until: number; deadlineAt?: number | null }>(
    ({ input, signal, self }) =>
      new Promise((resolve) => {
        const { clock } = givenSteps(self._parent) ?? own ?? { clock: monotonicClock };
        const now = clock.now();
        const wait = Math.max(0, input.until - now);
        const left = timeLeft(input.deadlineAt, now);
        const deadline = left !== null && left < wait;
        const cancel = clock.after(deadline ? (left as number) : wait, finish);
        signal.addEventListener('abort', finish, { once: true });
        function finish() {
          cancel();
          signal.removeEventListener('abort', finish);
          resolve({ deadline: deadline && !signal.aborted });
        }
      }),
  );
}

/** A config's step functions, as the step actors call them. */
export function runStepsOf<I, C>(config: LoopConfig<I, C>): RunSteps {
  const runner = (fn: unknown) => fn as StepRunner;
  const validate = config.validate as (c: unknown, x: unknown) => unknown;
  return {
    attempt: runner(config.attempt),
    validate: (ctx) => validate(ctx.candidate, ctx),
    refine: config.refine ? runner(config.refine) : keepInput,
    fallback: config.fallback ? runner(config.fallback) : noFallback,
    classify: config.classifyFailure,
    clock: monotonicClock,
    // loopchart's stand-in refine costs nothing
    estimates: config.refine ? config.costEstimates : { ...config.costEstimates, refine: 0 },
  };
}

/** The four step actors and the retry wait, by name; they run a run's given steps, else `own`. */
export function stepActors(settings: LoopSettings, own: RunSteps | undefined) {
  return {
    attempt: stepActor('attempt', settings, own),
    validate: stepActor('validate', settings, own),
    refine: stepActor('refine', settings, own),
    fallback: stepActor('fallback', settings, own),
    retryDelay: retryDelayActor(own),
  };
}

/**
 * Whether running `step` again is harmless: the config says so, or it is loopchart's own stand-in
 * for a refine or fallback the config leaves out (they act on nothing).
 */
export function isIdempotent(step: StepName, steps: RunSteps, settings: LoopSettings): boolean {
  return settings.idempotent[step] || steps[step] === keepInput || steps[step] === noFallback;
}

const keepInput: StepRunner = (ctx) => ctx.input;
const noFallback: StepRunner = () => {
  throw new LoopStepFailure('permanent', 'no fallback is configured');
};

export type { FailureRecord };
