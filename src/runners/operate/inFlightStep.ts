import { stepOfState } from '../../core/chart/loopContext.js';
import { isIdempotent } from '../../core/chart/standInSteps.js';
import { runStepsOf } from '../../core/chart/stepActors.js';
import type { AnyLoopConfig } from '../../core/vocabulary/AnyLoopConfig.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import type { Checkpoint } from '../../stores/kit/checkpointFormat.js';

/**
 * The step of a working checkpoint that was in flight when it was saved and that may not run
 * again (not idempotent): resuming it would end the run `unknown_outcome`. `undefined` otherwise.
 */
export function unsafeInFlightStep(
  checkpoint: Checkpoint,
  config: AnyLoopConfig,
  settings: LoopSettings,
): StepName | undefined {
  if (checkpoint.status !== 'running') return undefined;
  const step = stepOfState(checkpoint.snapshot.value);
  if (!step || checkpoint.snapshot.children?.[step]?.snapshot?.status !== 'active')
    return undefined;
  return isIdempotent(step, runStepsOf(config as never), settings) ? undefined : step;
}
