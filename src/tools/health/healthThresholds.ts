import { z } from 'zod';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';

const share = z.number().min(0).max(1);
const count = z.number().int().min(1);

const thresholdsSchema = z.strictObject({
  minRuns: count.optional(),
  minInvalidVerdicts: count.optional(),
  correctableShare: share.optional(),
  exhaustedShare: share.optional(),
  proceedShare: share.optional(),
  stalledShare: share.optional(),
});

/** When the health report raises its red flags (docs/health.md explains each). */
export interface HealthThresholds {
  /** Finished runs a loop needs before any run-based flag is raised. */
  minRuns: number;
  /** Invalid verdicts a loop needs before `all_correctable` is raised. */
  minInvalidVerdicts: number;
  /** `all_correctable`: raised when at least this share of invalid verdicts was correctable. */
  correctableShare: number;
  /** `exhausted_then_fallback`: raised when at least this share of runs spent `maxRetries`. */
  exhaustedShare: number;
  /** `no_proceed`: raised when at most this share of finished runs ended in `proceed`. */
  proceedShare: number;
  /** `stalls`: raised when at least this share of finished runs stalled. */
  stalledShare: number;
}

/** The documented defaults of every threshold. */
export const DEFAULT_HEALTH_THRESHOLDS: Readonly<HealthThresholds> = Object.freeze({
  minRuns: 20,
  minInvalidVerdicts: 30,
  correctableShare: 0.98,
  exhaustedShare: 0.2,
  proceedShare: 0,
  stalledShare: 0.1,
});

/** The names of the thresholds, for CLI parsing and messages. */
export const HEALTH_THRESHOLD_NAMES = Object.keys(
  DEFAULT_HEALTH_THRESHOLDS,
) as (keyof HealthThresholds)[];

/**
 * The defaults overridden by `overrides`; throws `LoopConfigError` naming a bad or unknown field.
 * @example resolveHealthThresholds({ exhaustedShare: 0.3 }).exhaustedShare; // 0.3
 */
export function resolveHealthThresholds(
  overrides: Partial<HealthThresholds> = {},
): HealthThresholds {
  const parsed = thresholdsSchema.safeParse(overrides, { reportInput: true });
  if (!parsed.success) {
    throw configErrorFrom('health thresholds', parsed.error, HEALTH_THRESHOLD_NAMES);
  }
  const given = Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== undefined),
  );
  return { ...DEFAULT_HEALTH_THRESHOLDS, ...given };
}
