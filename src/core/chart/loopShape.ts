import type { Shape } from '../decisions/decisionTable.js';
import type { LoopSettings } from '../vocabulary/config.js';
import type { StepName } from '../vocabulary/failures.js';

/** The parts of the chart a config can reach. */
export interface LoopShape extends Shape {
  hasReview: boolean;
}

/**
 * Which parts of the chart a config can reach, so the machine holds nothing a run cannot take.
 * @example shapeOf(resolveConfig({ attempt, validate, maxRetries: 0 })).canRefine // false
 */
export function shapeOf(settings: LoopSettings): LoopShape {
  const { review, stall, maxRetries, maxAttempts } = settings;
  const canReattempt = maxAttempts > 1;
  const canRefine = maxRetries > 0 && canReattempt;
  // every refine cycle takes an attempt, so the ceiling is hit first when maxAttempts ≤ maxRetries
  const canExhaust = maxAttempts > maxRetries;
  const canFallBack = settings.hasFallback && canExhaust;
  // each verdict in an unbroken run of rejections follows its own attempt, unless a reviewer edits
  const rejectionsInARow = Math.min(maxRetries + 1, maxAttempts);
  const canStall =
    stall !== null && (rejectionsInARow >= stall.after || review.afterFailedValidation);
  const steps: StepName[] = ['attempt', 'validate'];
  if (canRefine) steps.push('refine');
  if (canFallBack) steps.push('fallback');
  return {
    canReattempt,
    canRefine,
    canExhaust,
    canFallBack,
    canStall,
    hasBudget: settings.maxCost !== null,
    hasNonIdempotentStep: steps.some((step) => !settings.idempotent[step]),
    hasDeadline: settings.deadlineMs !== null,
    hasReview: review.beforeProceed || review.afterFailedValidation,
    reviewsBeforeProceed: review.beforeProceed,
    reviewsAfterFailedValidation: review.afterFailedValidation,
  };
}
