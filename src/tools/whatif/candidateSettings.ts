import { z } from 'zod';
import {
  DEFAULT_MAX_RETRIES,
  type LoopSettings,
  loopOptionsSchema,
} from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';

const knobs = loopOptionsSchema.pick({
  maxRetries: true,
  maxAttempts: true,
  stall: true,
  deadlineMs: true,
  idempotent: true,
  maxRetryDelayMs: true,
  retryDelayMs: true,
});

/** The knobs a what-if can change: the budget and the retry rules, nothing that calls a step. */
export const whatIfChangeSchema = knobs.extend({
  maxCost: z
    .union([z.number().positive().finite(), z.null()], {
      error: 'must be a finite number > 0, or null for no cost budget',
    })
    .optional(),
  fallback: z
    .boolean({ error: 'must be true or false (whether a fallback is configured)' })
    .optional(),
});

/** A candidate config: the recorded one with these knobs changed. */
export type WhatIfChange = z.input<typeof whatIfChangeSchema>;

/** The knob names a what-if accepts (for `--set` and `--sweep`). */
export const WHAT_IF_KNOBS = Object.keys(whatIfChangeSchema.shape) as (keyof WhatIfChange)[];

/** Validates a change; a bad one throws `LoopConfigError` naming the knob and its range. */
export function parseWhatIfChange(change: unknown): WhatIfChange {
  const parsed = whatIfChangeSchema.safeParse(change, { reportInput: true });
  if (!parsed.success) throw configErrorFrom('what-if config', parsed.error, WHAT_IF_KNOBS);
  return parsed.data;
}

/**
 * The settings a recorded run would have run under with `change` applied. An unchanged knob keeps
 * its recorded value, except `maxAttempts`: a run that used the default (2 × (maxRetries + 1))
 * keeps using the default for the new `maxRetries`, as a config that never set it would.
 * @example candidateSettings(recorded, { maxRetries: 1 }).maxRetries // 1
 */
export function candidateSettings(recorded: LoopSettings, change: WhatIfChange): LoopSettings {
  const maxRetries = change.maxRetries ?? recorded.maxRetries;
  const defaultAttempts = (retries: number) => Math.min(100, 2 * (retries + 1));
  const usedDefault =
    recorded.maxAttempts === defaultAttempts(recorded.maxRetries ?? DEFAULT_MAX_RETRIES);
  const maxAttempts =
    change.maxAttempts ?? (usedDefault ? defaultAttempts(maxRetries) : recorded.maxAttempts);
  const stall =
    change.stall === undefined
      ? recorded.stall
      : change.stall === false
        ? null
        : { after: change.stall.after, on: change.stall.on ?? 'candidate-and-verdict' };
  return {
    ...recorded,
    maxRetries,
    maxAttempts,
    maxCost: change.maxCost === undefined ? recorded.maxCost : change.maxCost,
    stall,
    hasFallback: change.fallback ?? recorded.hasFallback,
    deadlineMs: change.deadlineMs === undefined ? recorded.deadlineMs : change.deadlineMs,
    maxRetryDelayMs: change.maxRetryDelayMs ?? recorded.maxRetryDelayMs,
    retryDelayMs: change.retryDelayMs ?? recorded.retryDelayMs,
    idempotent: idempotentOf(recorded.idempotent, change.idempotent),
  };
}

function idempotentOf(
  recorded: Record<StepName, boolean>,
  change: WhatIfChange['idempotent'],
): Record<StepName, boolean> {
  if (change === undefined) return recorded;
  if (typeof change === 'boolean') {
    return { attempt: change, validate: change, refine: change, fallback: change };
  }
  return { ...recorded, ...change } as Record<StepName, boolean>;
}
