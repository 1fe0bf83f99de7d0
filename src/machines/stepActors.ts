import { type AnyActorRef, fromPromise } from 'xstate';
import type { ClarificationAnswer, LoopConfig, LoopSettings } from '../config.js';
import {
  DeadlineExceeded,
  deadlineRecord,
  isDeadlineExceeded,
  timeLeft,
} from '../deadline/deadline.js';
import {
  classifyFailure,
  type FailureClassifier,
  type FailureRecord,
  LoopStepFailure,
  markFailureRecord,
  type StepName,
  transientFailure,
  uncertainSideEffect,
} from '../failures.js';
import { gateOf, type StepGate } from '../persistence/stepGate.js';
import { readStepResult, stepOutput } from '../stepResults.js';
import type { ValidationError } from '../validation.js';
import { type TimeLimit, withTimeLimit } from '../withTimeLimit.js';

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
}

/** Where a step actor finds the functions of its run: fixed, or looked up by the actor system. */
export type StepsOf = (system: AnyActorRef['system']) => RunSteps;

/**
 * Wraps a user step as a promise actor: builds one frozen ctx, honours the actor's `signal` and the
 * timeout, checks reported cost, and turns every throw into a classified `FailureRecord`.
 */
export function stepActor(step: StepName, stepsOf: StepsOf, settings: LoopSettings) {
  return fromPromise<unknown, StepInput>(({ input, signal, system }) =>
    runOneStep(step, () => stepsOf(system), settings, input, signal, system),
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
  system?: ActorSystem,
): Promise<unknown> {
  const timeoutMs = step === 'attempt' ? settings.attemptTimeoutMs : settings.stepTimeoutMs;
  let classify: FailureClassifier | undefined;
  try {
    const steps = stepsOf();
    classify = steps.classify;
    const run = steps[step];
    if (input.resumed && !isIdempotent(step, steps, settings)) {
      throw uncertainSideEffect(
        `${step} was in flight when the run was checkpointed; it is not idempotent, so it was not run again`,
      );
    }
    if (signal.aborted) throw signal.reason;
    // a resumed step was in flight when its process died: it may have begun there
    const began = input.resumed === true;
    if (steps.gate) await passGate(steps.gate, { step, input, signal, system, began });
    const left = timeLeft(input.deadlineAt);
    if (left === 0) throw new DeadlineExceeded(step, began);
    // called synchronously as the actor starts, so a step counted as started has really run
    const start = (stepSignal: AbortSignal) => run(stepContext(input, stepSignal));
    const limit = stepLimit(step, timeoutMs, left);
    const raw = await (limit === null ? start(signal) : withTimeLimit(start, { ...limit, signal }));
    const read = readStepResult(raw);
    if (read.costProblem) throw new LoopStepFailure('permanent', `${step} ${read.costProblem}`);
    // only an attempt may return an empty result or a question
    return stepOutput(read, step === 'attempt');
  } catch (error) {
    if (isDeadlineExceeded(error)) throw deadlineRecord(error);
    throw markFailureRecord(classifyFailure(error, step, classify));
  }
}

type ActorSystem = AnyActorRef['system'];
const waitingAttempts = new WeakMap<ActorSystem, number>();

/**
 * True while attempt number `attempt` of the run in `system` waits for its checkpoint to be
 * saved: it has not begun, so a stop then has not invoked it.
 */
export function attemptWaiting(system: ActorSystem, attempt: number): boolean {
  return waitingAttempts.get(system) === attempt;
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
    system: ActorSystem | undefined;
    began: boolean;
  },
): Promise<void> {
  const { step, input, system, began } = at;
  const waiting = step === 'attempt' && !began && system !== undefined;
  if (waiting) waitingAttempts.set(system, input.attempt);
  try {
    const left = timeLeft(input.deadlineAt);
    const pass = (signal: AbortSignal) => gate.pass(signal);
    await (left === null
      ? pass(at.signal)
      : withTimeLimit(pass, {
          ms: left,
          timeout: () => new DeadlineExceeded(step, began),
          signal: at.signal,
        }));
  } finally {
    if (waiting && waitingAttempts.get(system) === input.attempt) waitingAttempts.delete(system);
  }
}

type Limit = Omit<TimeLimit, 'signal'>;

/** The step's own timeout or what is left of the deadline, whichever ends first. */
function stepLimit(step: StepName, timeoutMs: number | null, left: number | null): Limit | null {
  if (left !== null && (timeoutMs === null || left < timeoutMs)) {
    return { ms: left, timeout: () => new DeadlineExceeded(step) };
  }
  if (timeoutMs === null) return null;
  return { ms: timeoutMs, timeout: () => stepTimeout(step, timeoutMs) };
}

function stepContext(input: StepInput, signal: AbortSignal): Readonly<Record<string, unknown>> {
  return Object.freeze({
    input: input.input,
    feedback: input.feedback,
    previous: input.previous,
    candidate: input.candidate,
    // the spec's names for what a refine or a fallback is given
    partial: input.candidate,
    error: input.feedback,
    iteration: input.iteration,
    attempt: input.attempt,
    key: input.key,
    answers: input.answers,
    signal,
  });
}

/**
 * The retry wait, as an actor with an absolute end so a restored run waits only the remainder.
 * It is cut short by the run's deadline, and then says so (`{ deadline: true }`).
 */
export const retryDelayActor = fromPromise<
  { deadline: boolean },
  { until: number; deadlineAt?: number | null }
>(
  ({ input, signal }) =>
    new Promise((resolve) => {
      const wait = Math.max(0, input.until - Date.now());
      const left = timeLeft(input.deadlineAt);
      const deadline = left !== null && left < wait;
      const timer = setTimeout(finish, deadline ? left : wait);
      signal.addEventListener('abort', finish, { once: true });
      function finish() {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        resolve({ deadline: deadline && !signal.aborted });
      }
    }),
);

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
    gate: gateOf(config),
  };
}

/** The four step actors and the retry wait, by name. */
export function stepActors(settings: LoopSettings, stepsOf: StepsOf) {
  return {
    attempt: stepActor('attempt', stepsOf, settings),
    validate: stepActor('validate', stepsOf, settings),
    refine: stepActor('refine', stepsOf, settings),
    fallback: stepActor('fallback', stepsOf, settings),
    retryDelay: retryDelayActor,
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
