import type { LoopSettings } from '../vocabulary/config.js';
import { LoopStepFailure, type StepName } from '../vocabulary/failures.js';
import type { RunSteps, StepRunner } from './stepActors.js';

/** loopchart's stand-in for a refine the config leaves out: the input, unchanged. */
export const keepInput: StepRunner = (ctx) => ctx.input;

/** loopchart's stand-in for a fallback the config leaves out: a permanent failure. */
export const noFallback: StepRunner = () => {
  throw new LoopStepFailure('permanent', 'no fallback is configured');
};

/**
 * Whether running `step` again is harmless: the config says so, or it is loopchart's own stand-in
 * for a refine or fallback the config leaves out (they act on nothing).
 */
export function isIdempotent(step: StepName, steps: RunSteps, settings: LoopSettings): boolean {
  return settings.idempotent[step] || steps[step] === keepInput || steps[step] === noFallback;
}
