import type { AnswerSchemas, LoopConfig } from 'loopchart';
import { z } from 'zod';
import {
  type Combination,
  costUnit,
  deadlineOf,
  RETRY_DELAY_MS,
  type Step,
} from './combination.js';
import type { Ledger } from './ledger.js';
import { modelConfig } from './modelConfig.js';
import { otherSteps, scriptedAttempt, scriptPlayer } from './scriptedConfig.js';

/** The combination's loop: scripted steps, or model steps (with the scripted judge and refine). */
export function combinationConfig(c: Combination, ledger: Ledger): LoopConfig<unknown, unknown> {
  const next = scriptPlayer();
  const rest = { ...loopBounds(c), ...answerSchemas(c, ledger), ...otherSteps(c, ledger, next) };
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
    ...(c.costEstimates === undefined ? {} : { costEstimates: estimatesOf(c, c.costEstimates) }),
    stall: c.stall,
    review: c.review,
    idempotent: c.idempotent,
    deadlineMs: deadlineOf(c),
    ...(c.attemptTimeoutMs === null ? {} : { attemptTimeoutMs: c.attemptTimeoutMs }),
    ...(c.stepTimeoutMs === null ? {} : { stepTimeoutMs: c.stepTimeoutMs }),
    retryDelayMs: RETRY_DELAY_MS,
  };
}

/** The combination's cost estimates in the config's cost (units of maxCost). */
function estimatesOf(c: Combination, estimates: Partial<Record<Step, number>>) {
  return Object.fromEntries(
    Object.entries(estimates).map(([step, units]) => [step, units * costUnit(c)]),
  );
}

/**
 * The config's answer schemas: none; ones every answer the harness gives passes (`bad` ones are
 * refused before them); or ones whose check never answers, so the run's time left must end it.
 */
function answerSchemas(c: Combination, ledger: Ledger): { answers?: AnswerSchemas } {
  if (c.faults.schemas === 'none') return {};
  if (c.faults.schemas === 'checks') {
    return {
      answers: {
        candidate: z.object({ edited: z.literal(true) }),
        input: z.string().min(1),
        clarification: z.enum(['2025', '2026']),
      },
    };
  }
  const hangs = {
    '~standard': {
      version: 1 as const,
      vendor: 'combinations',
      validate: () => {
        ledger.schemaHangs += 1;
        return new Promise<never>(() => {});
      },
    },
  };
  return { answers: { candidate: hangs, input: hangs, clarification: hangs } };
}
