import type { LoopSettings } from './config.js';

/** What is left of a run's budgets when a step starts (`ctx.budget`, SPEC §15); frozen. */
export interface StepBudget {
  /** Refine cycles still allowed. */
  readonly refinesLeft: number;
  /** Attempt invocations still allowed after the current one. */
  readonly attemptsLeft: number;
  /** What is left of `maxCost`; `null` without one. */
  readonly costLeft: number | null;
  /** Live time left before `deadlineMs`; `null` without one. */
  readonly timeLeftMs: number | null;
  /** No refine cycle can follow this attempt: a rejection of its candidate ends the loop. */
  readonly isLastAttempt: boolean;
}

/** The budget a step is shown, from the counters its input carries and the time left. */
export function stepBudget(
  settings: LoopSettings,
  input: { iteration: number; attempt: number; cost?: number },
  timeLeftMs: number | null,
): StepBudget {
  const refinesLeft = Math.max(0, settings.maxRetries - input.iteration);
  const attemptsLeft = Math.max(0, settings.maxAttempts - input.attempt);
  return Object.freeze({
    refinesLeft,
    attemptsLeft,
    costLeft: settings.maxCost === null ? null : Math.max(0, settings.maxCost - (input.cost ?? 0)),
    timeLeftMs,
    isLastAttempt: refinesLeft === 0 || attemptsLeft === 0,
  });
}
