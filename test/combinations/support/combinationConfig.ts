import type { LoopConfig } from 'loopchart';
import { type Combination, costUnit, deadlineOf, RETRY_DELAY_MS } from './combination.js';
import type { Ledger } from './ledger.js';
import { modelConfig } from './modelConfig.js';
import { otherSteps, scriptedAttempt, scriptPlayer } from './scriptedConfig.js';

/** The combination's loop: scripted steps, or model steps (with the scripted judge and refine). */
export function combinationConfig(c: Combination, ledger: Ledger): LoopConfig<unknown, unknown> {
  const next = scriptPlayer();
  const rest = { ...loopBounds(c), ...otherSteps(c, ledger, next) };
  if (c.steps === 'model') return { ...rest, ...modelConfig(c, ledger, next) };
  return { ...rest, ...scriptedAttempt(c, ledger, next) } as LoopConfig<unknown, unknown>;
}

/** The parts of a loop config every kind of step shares: bounds, review, timeouts, deadline. */
export function loopBounds(
  c: Combination,
): Omit<LoopConfig<unknown, unknown>, 'attempt' | 'validate'> {
  return {
    maxRetries: c.maxRetries,
    ...(c.maxAttempts === undefined ? {} : { maxAttempts: c.maxAttempts }),
    ...(c.maxCost === undefined ? {} : { maxCost: c.maxCost * costUnit(c) }),
    stall: c.stall,
    review: c.review,
    idempotent: c.idempotent,
    deadlineMs: deadlineOf(c),
    ...(c.attemptTimeoutMs === null ? {} : { attemptTimeoutMs: c.attemptTimeoutMs }),
    ...(c.stepTimeoutMs === null ? {} : { stepTimeoutMs: c.stepTimeoutMs }),
    retryDelayMs: RETRY_DELAY_MS,
  };
}
