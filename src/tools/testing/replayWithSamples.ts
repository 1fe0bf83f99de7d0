import type { AnyMachineSnapshot } from 'xstate';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { readError } from '../../core/vocabulary/failures.js';
import type { LoopPath, LoopPathOptions, LoopPathStep } from './getLoopPaths.js';
import { LoopPathMismatchError } from './LoopPathMismatchError.js';
import { LoopPathUnrealisableError } from './LoopPathUnrealisableError.js';
import { sampleAt } from './loopSamples.js';
import { realiseLoopPath } from './realiseLoopPath.js';
import {
  type LoopPathStepState,
  type LoopReplay,
  type ReplayPlan,
  replayLoopPath,
} from './replayLoopPath.js';
import { missingSamples } from './sampleNeeds.js';

/**
 * The replay of a path fed from the user's samples and run through their real steps: which samples
 * it lacks (then it is skipped), and the replay itself, which first rewrites the path's events with
 * the user's values and checks they still take the path's transitions.
 */
export function replayWithSamples<I, C>(
  plan: ReplayPlan,
  steps: readonly LoopPathStep[],
  options: LoopPathOptions<I, C>,
) {
  const samples = options.samples ?? {};
  const { realSteps } = options;
  const real = {
    validate: realSteps?.validate !== undefined,
    refine: realSteps !== undefined,
    fallback: realSteps?.fallback !== undefined,
  };
  const missing = missingSamples(
    steps,
    samples,
    real,
    (key) => sampleAt(samples, key) !== undefined,
  );
  const skipped = missing.length
    ? `needs ${missing.map((key) => `samples.${key}`).join(', ')}`
    : undefined;
  const mismatch = (problem: string) => new LoopPathMismatchError(plan.description, -1, problem);
  return {
    skipped,
    async replay(path: LoopPath<C>): Promise<LoopReplay<C>> {
      if (skipped)
        throw mismatch(`the path was skipped: it ${skipped}, which the options do not give`);
      const { events, dryRun: realised } = await realiseLoopPath<I, C>({
        machine: plan.machine,
        input: plan.input,
        description: plan.description,
        steps,
        samples,
        realSteps,
        stepTimeoutMs: options.realStepTimeoutMs ?? 5000,
      });
      const want = plan.expected().transitions;
      const at = realised.transitions.findIndex((id, index) => id !== want[index]);
      if (at >= 0 || realised.transitions.length !== want.length) {
        const index = at >= 0 ? at : Math.min(realised.transitions.length, want.length);
        throw new LoopPathUnrealisableError(
          plan.description,
          -1,
          `with your samples and steps the run leaves the path at transition ${index + 1}: it takes ${realised.transitions[index] ?? 'nothing'} where the path takes ${want[index] ?? 'nothing'} (a repeated sample can stall the loop: give samples that vary with n)`,
        );
      }
      return replayLoopPath<C>({
        ...plan,
        events,
        expected: () => realised,
        ...(options.onStep ? { onStep: stepHook(options.onStep, steps, path) } : {}),
      });
    },
  };
}

/** Adapts a user's `onStep` to the replay's per-event callback. */
export function stepHook<I, C>(
  onStep: NonNullable<LoopPathOptions<I, C>['onStep']>,
  steps: readonly LoopPathStep[],
  path: LoopPath<C>,
) {
  return (index: number, snapshot: AnyMachineSnapshot) => {
    const view = loopView(snapshot) as LoopView;
    const step: LoopPathStepState<I, C> = {
      index,
      label: steps[index]?.label ?? '',
      state: String(snapshot.value),
      input: view.input as I,
      candidate: view.candidate as C | undefined,
      attempts: view.attempts,
      iterations: view.iterations,
    };
    const named = `onStep after step ${index + 1} (${step.label}: input ${describeValue(step.input)}, candidate ${describeValue(step.candidate)})`;
    return userHook(path.description, index + 1, named, () => onStep(step, path));
  };
}

/** Runs a user's hook; what it throws fails the path, naming the hook, the step and its values. */
export async function userHook(
  description: string,
  step: number,
  named: string,
  run: () => unknown,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    const { name, message } = readError(error);
    throw new LoopPathMismatchError(
      description,
      step,
      `${named} threw ${name ?? 'a value'}: ${message}`,
    );
  }
}
