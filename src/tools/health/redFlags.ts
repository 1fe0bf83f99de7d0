import type { LoopHealth } from './HealthReport.js';
import { percent, shareOf } from './healthFormat.js';
import type { HealthThresholds } from './healthThresholds.js';

/** A red flag a loop raised: what it means, the numbers that raised it and the threshold. */
export interface RedFlag {
  id: RedFlagId;
  title: string;
  /** One sentence with the numbers, the threshold and what to look at. */
  message: string;
  /** The measured share. */
  value: number;
  /** The threshold it crossed. */
  threshold: number;
  /** The counts behind `value`. */
  counts: Record<string, number>;
}

export type RedFlagId = (typeof RED_FLAGS)[number]['id'];
type Health = Omit<LoopHealth, 'flags'>;
type Check = (loop: Health, t: HealthThresholds) => Omit<RedFlag, 'id' | 'title'> | undefined;

/** The red flags of the loop-router design, checked in this order; docs/health.md has the table. */
export const RED_FLAGS = [
  {
    id: 'all_correctable',
    title: 'Every error is classified correctable',
    check: ({ verdicts }, t) => {
      const correctable = verdicts.counts.correctable;
      const value = shareOf(correctable, verdicts.invalid);
      if (verdicts.invalid < t.minInvalidVerdicts || value < t.correctableShare) return undefined;
      return {
        value,
        threshold: t.correctableShare,
        counts: {
          correctable,
          invalid: verdicts.invalid,
          fundamental: verdicts.counts.fundamental,
        },
        message: `${correctable} of ${verdicts.invalid} invalid verdicts (${percent(value)}) were correctable and ${verdicts.counts.fundamental} fundamental (threshold: ≥ ${percent(t.correctableShare)} of ≥ ${t.minInvalidVerdicts}); the validator may not be detecting fundamental errors, so unfixable inputs spend the whole budget.`,
      };
    },
  },
  {
    id: 'exhausted_then_fallback',
    title: 'Iterations regularly hit maxRetries and then fall back',
    check: ({ outcomes, finished, iterations }, t) => {
      const value = shareOf(iterations.exhausted, finished);
      if (finished < t.minRuns || value < t.exhaustedShare) return undefined;
      return {
        value,
        threshold: t.exhaustedShare,
        counts: {
          exhausted: iterations.exhausted,
          finished,
          fallback: outcomes.fallback,
          iteration_exhausted: outcomes.iteration_exhausted,
        },
        message: `${iterations.exhausted} of ${finished} finished runs (${percent(value)}) spent all ${iterations.maxRetries} retries and then fell back (${outcomes.fallback} fallback, ${outcomes.iteration_exhausted} iteration_exhausted; threshold: ≥ ${percent(t.exhaustedShare)} of ≥ ${t.minRuns} runs); refine is not improving the candidate: check that the feedback reaches the next attempt.`,
      };
    },
  },
  {
    id: 'no_proceed',
    title: 'No terminal proceed across many runs',
    check: ({ outcomes, finished }, t) => {
      const value = shareOf(outcomes.proceed, finished);
      if (finished < t.minRuns || value > t.proceedShare) return undefined;
      return {
        value,
        threshold: t.proceedShare,
        counts: { proceed: outcomes.proceed, finished },
        message: `${outcomes.proceed} of ${finished} finished runs (${percent(value)}) ended in proceed (threshold: ≤ ${percent(t.proceedShare)} of ≥ ${t.minRuns} runs); the validator's bar may be unsatisfiable or refine a no-op: the loop is theatre.`,
      };
    },
  },
  {
    id: 'stalls',
    title: 'Loops stall',
    check: ({ stalls, finished }, t) => {
      const value = shareOf(stalls.runs, finished);
      if (finished < t.minRuns || value < t.stalledShare) return undefined;
      const top = stalls.fingerprints[0];
      const where = top
        ? `, most on fingerprint ${top.fingerprint} (${top.runs} runs, at refine cycle ${top.atIteration.findIndex((n) => n > 0)}${top.atIteration.filter((n) => n > 0).length > 1 ? ' and later' : ''})`
        : '';
      return {
        value,
        threshold: t.stalledShare,
        counts: { stalled: stalls.runs, finished, onTopFingerprint: top?.runs ?? 0 },
        message: `${stalls.runs} of ${finished} finished runs (${percent(value)}) stalled${where} (threshold: ≥ ${percent(t.stalledShare)} of ≥ ${t.minRuns} runs); the attempt repeats itself: the feedback does not change what it produces.`,
      };
    },
  },
] as const satisfies readonly { id: string; title: string; check: Check }[];

/**
 * The red flags `loop` raises under thresholds `t`, in table order.
 * @example redFlagsOf(health, DEFAULT_HEALTH_THRESHOLDS).map((flag) => flag.id);
 */
export function redFlagsOf(loop: Health, t: HealthThresholds): RedFlag[] {
  return RED_FLAGS.flatMap(({ id, title, check }) => {
    const raised = (check as Check)(loop, t);
    return raised ? [{ id, title, ...raised }] : [];
  });
}
