import type { Clock } from '../vocabulary/clock.js';
import type { LoopSettings } from '../vocabulary/config.js';
import {
  classifyFailure,
  type FailureClassifier,
  LoopStepFailure,
  markFailureRecord,
  type StepName,
  transientFailure,
  uncertainSideEffect,
} from '../vocabulary/failures.js';
import { stepBudget } from '../vocabulary/stepBudget.js';
import { missingResult, readStepResult, stepOutput } from '../vocabulary/stepResults.js';
import { type TimeLimit, withLazySignal, withTimeLimit } from '../vocabulary/withTimeLimit.js';
import { reservationRefusal } from './costReservation.js';
import { DeadlineExceeded, deadlineRecord, isDeadlineExceeded, timeLeft } from './deadline.js';
import { isIdempotent } from './standInSteps.js';
import type { RunSteps, StepInput } from './stepActors.js';
import { stepContext } from './stepContext.js';
import type { StepGate } from './stepGate.js';

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

/**
 * One step as a step actor runs it: the step's output, or a thrown marked `FailureRecord` (a
 * step the deadline cut off, or the user's failure classified). Engines that journal a step run
 * this inside their own step, so the timeout and the deadline are part of what they record.
 */
export function runOneStep(
  step: StepName,
  stepsOf: () => RunSteps,
  settings: LoopSettings,
  input: StepInput,
  signal: AbortSignal,
): Promise<unknown> {
  let classify: FailureClassifier | undefined;
  try {
    const steps = stepsOf();
    classify = steps.classify;
    const call: StepCall = { step, steps, settings, input, signal };
    if (input.resumed && !isIdempotent(step, steps, settings)) {
      throw uncertainSideEffect(
        `${step} was in flight when the run was checkpointed; it is not idempotent, so it was not run again`,
      );
    }
    // until it passes the gate an attempt has not begun: a stop meanwhile (an abort, the
    // budget's refusal) does not count it
    if (step === 'attempt' && input.resumed !== true) steps.gate?.attemptWaits(input.attempt);
    if (signal.aborted) throw signal.reason;
    const refusal = reservationRefusal(
      step,
      steps.estimates?.[step],
      input.cost ?? 0,
      settings.maxCost,
    );
    if (refusal) throw refusal;
    if (steps.gate) return gatedStep(call, steps.gate);
    // no await here: a step in flight holds a settle callback, not a suspended async frame
    return Promise.resolve(startStep(call)).then(
      (raw) => checkedResult(step, raw, classify),
      (error: unknown) => {
        throw stepFailure(error, step, classify);
      },
    );
  } catch (error) {
    // as from an async function: whatever the classification throws rejects, never throws
    return new Promise((_, reject) => reject(stepFailure(error, step, classify)));
  }
}

interface StepCall {
  step: StepName;
  steps: RunSteps;
  settings: LoopSettings;
  input: StepInput;
  signal: AbortSignal;
}

/** A step of a checkpointed run: it waits for the save before it, then runs. */
async function gatedStep(call: StepCall, gate: StepGate): Promise<unknown> {
  const { step, input, signal, steps } = call;
  try {
    await passGate(gate, {
      step,
      input,
      signal,
      began: input.resumed === true,
      clock: steps.clock,
    });
    return stepResult(step, await startStep(call));
  } catch (error) {
    throw stepFailure(error, step, steps.classify);
  }
}

/** Calls the user's step (synchronously, so a step counted as started has really run). */
function startStep({ step, steps, settings, input, signal }: StepCall): unknown {
  const left = timeLeft(input.deadlineAt, steps.clock.now());
  // a resumed step was in flight when its process died: it may have begun there
  if (left === 0) throw new DeadlineExceeded(step, input.resumed === true);
  const budget = stepBudget(settings, input, left);
  const run = steps[step];
  const start = (stepSignal: () => AbortSignal) => run(stepContext(input, stepSignal, budget));
  const timeoutMs = step === 'attempt' ? settings.attemptTimeoutMs : settings.stepTimeoutMs;
  const limit = stepLimit(step, timeoutMs, left, signal, steps.clock);
  return limit === null ? start(() => signal) : withLazySignal(start, limit);
}

/** What a step returned, checked: its output, or a permanent failure. */
function stepResult(step: StepName, raw: unknown): unknown {
  const read = readStepResult(raw);
  if (read.costProblem) throw new LoopStepFailure('permanent', `${step} ${read.costProblem}`);
  const missing = missingResult(step, read.value);
  if (missing) throw new LoopStepFailure('permanent', missing);
  // only an attempt may return an empty result or a question
  return stepOutput(read, step === 'attempt');
}

function checkedResult(step: StepName, raw: unknown, classify: FailureClassifier | undefined) {
  try {
    return stepResult(step, raw);
  } catch (error) {
    throw stepFailure(error, step, classify);
  }
}

function stepFailure(error: unknown, step: StepName, classify: FailureClassifier | undefined) {
  if (isDeadlineExceeded(error)) return deadlineRecord(error);
  return markFailureRecord(classifyFailure(error, step, classify));
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
    return { ms: left, timeout: DEADLINE_PASSED[step], signal, clock };
  }
  if (timeoutMs === null) return null;
  return { ms: timeoutMs, timeout: () => stepTimeout(step, timeoutMs), signal, clock };
}

// shared by every run: a step in flight holds no closure of its own for its deadline
const DEADLINE_PASSED: Record<StepName, () => DeadlineExceeded> = {
  attempt: () => new DeadlineExceeded('attempt'),
  validate: () => new DeadlineExceeded('validate'),
  refine: () => new DeadlineExceeded('refine'),
  fallback: () => new DeadlineExceeded('fallback'),
};
