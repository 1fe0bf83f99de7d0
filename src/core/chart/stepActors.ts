import { type AnyActorRef, fromPromise } from 'xstate';
import { type Clock, monotonicClock } from '../vocabulary/clock.js';
import type { ClarificationAnswer, LoopConfig, LoopSettings } from '../vocabulary/config.js';
import {
  type FailureClassifier,
  type FailureRecord,
  LoopStepFailure,
  type StepName,
} from '../vocabulary/failures.js';
import type { ValidationError } from '../vocabulary/validation.js';
import { timeLeft } from './deadline.js';
import { runOneStep } from './runOneStep.js';
import { keepInput, noFallback } from './standInSteps.js';
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

export type StepRunner = (ctx: Record<string, unknown>) => unknown;

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

export type { FailureRecord };
