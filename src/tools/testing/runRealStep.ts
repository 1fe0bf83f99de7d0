import { runOneStep } from '../../core/chart/runOneStep.js';
import type { RunSteps, StepInput } from '../../core/chart/stepActors.js';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import { readError, type StepName } from '../../core/vocabulary/failures.js';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import { isLoopPathMismatchError } from './LoopPathMismatchError.js';

/** A user's step, called with the ctx a run gives it. */
export type StepRunner = (ctx: Readonly<Record<string, unknown>>) => unknown;

/** One call of a user's real step on a path. */
export interface RealStepCall {
  step: StepName;
  run: StepRunner;
  /** The input the machine invoked the step with. */
  input: StepInput;
  settings: LoopSettings;
  timeoutMs: number;
  /** What the step works on, for the failure message: `samples.candidates.valid (n = 1: …)`. */
  source: string;
  /** The path's label for the step's event. */
  label: string;
  fail: (problem: string) => Error;
  /** For a step a run would refuse to call here (its cost would pass `maxCost`, say). */
  unrealisable: (reason: string) => Error;
}

/**
 * Runs a user's step exactly as a run's step actor does (`runOneStep`: the same frozen ctx, the
 * same checks of its result), and turns what goes wrong into a path failure
 * that names the step, what it was given and what the path expected.
 */
export async function runRealStep(call: RealStepCall): Promise<unknown> {
  const { step, source, label, fail } = call;
  let thrown: { error: unknown } | undefined;
  let called = false;
  const guarded: StepRunner = async (ctx) => {
    called = true;
    try {
      return await call.run(ctx);
    } catch (error) {
      thrown = { error };
      throw error;
    }
  };
  const steps: RunSteps = {
    attempt: guarded,
    validate: guarded,
    refine: guarded,
    fallback: guarded,
    classify: undefined,
    clock: monotonicClock,
  };
  const { input } = call;
  const given = jsonOf(input);
  try {
    const output = await withTimeLimit(
      (signal) => runOneStep(step, () => steps, call.settings, input, signal),
      {
        ms: call.timeoutMs,
        timeout: () => fail(`${step} did not settle within ${call.timeoutMs} ms on ${source}`),
      },
    );
    if (jsonOf(input) !== given)
      throw fail(
        `${step} changed its ctx in place on ${source}: a run persists what it was given, so a step must return new values`,
      );
    return output;
  } catch (error) {
    if (isLoopPathMismatchError(error)) throw error;
    if (thrown) {
      const { name, message } = readError(thrown.error);
      throw fail(
        `${step} threw ${name ?? 'a value'}: ${message} on ${source}; the path expected ${label}`,
      );
    }
    // runOneStep's own refusal (no result, a bad cost) comes as a failure record
    const record = error as { message?: unknown };
    const message = typeof record?.message === 'string' ? record.message : readError(error).message;
    if (!called) throw call.unrealisable(`a run would not call ${step} here: ${message}`);
    throw fail(`${message} on ${source}; the path expected ${label}`);
  }
}

/** JSON of a step's input, or a marker when it cannot be read as JSON. */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return 'not JSON';
  }
}
