import { z } from 'zod';
import type { Decision } from '../statuses.js';
import { type ValidationError, validationErrorSchema } from '../validation.js';
import { configErrorFrom } from '../zodIssues.js';
import { hasRetriesLeft } from './budgetGuards.js';
import { isFundamental, isValid, lacksDiagnostic } from './verdictGuards.js';

const count = (max?: number) => {
  const error =
    max === undefined ? 'must be an integer ≥ 0' : `must be an integer from 0 to ${max}`;
  const atLeastZero = z.number({ error }).int({ error }).min(0, { error });
  return max === undefined ? atLeastZero : atLeastZero.max(max, { error });
};

const argsSchema = z.object({
  isValid: z.boolean({ error: 'must be true or false' }),
  error: validationErrorSchema.nullish(),
  retryCount: count(),
  maxRetries: count(50),
});

export interface RouteArgs {
  isValid: boolean;
  error?: ValidationError | null;
  retryCount: number;
  maxRetries: number;
}

export interface Route {
  decision: Decision;
  /** The retry count after the decision: incremented only on `refine`. */
  retryCount: number;
  rationale: string;
}

/**
 * The decision table (SPEC §1) as a pure function. Bad arguments throw `LoopConfigError`.
 * @example routeAfterValidation({ isValid: false, error: { severity: 'correctable', message: 'x' }, retryCount: 0, maxRetries: 3 })
 *   // → { decision: 'refine', retryCount: 1, rationale: '…' }
 */
export function routeAfterValidation(args: RouteArgs): Route {
  const parsed = argsSchema.safeParse(args, { reportInput: true });
  if (!parsed.success) throw configErrorFrom('routeAfterValidation arguments', parsed.error);
  const { retryCount, maxRetries } = parsed.data;
  const verdict = parsed.data.isValid
    ? { valid: true as const }
    : { valid: false as const, error: parsed.data.error ?? null };
  if (isValid(verdict)) {
    return { decision: 'proceed', retryCount, rationale: 'The validator accepted the candidate.' };
  }
  if (isFundamental(verdict)) {
    return {
      decision: 'terminate_with_partial',
      retryCount,
      rationale:
        'The error is fundamental: refining cannot fix it, so the loop stops with the partial result.',
    };
  }
  if (lacksDiagnostic(verdict)) {
    return {
      decision: 'terminate_with_partial',
      retryCount,
      rationale:
        'The validator gave no diagnostic, and a loop cannot safely refine what it cannot diagnose.',
    };
  }
  if (hasRetriesLeft(retryCount, maxRetries)) {
    return {
      decision: 'refine',
      retryCount: retryCount + 1,
      rationale: `The error is correctable and ${maxRetries - retryCount} of ${maxRetries} retries are left, so the loop refines.`,
    };
  }
  return {
    decision: 'fallback',
    retryCount,
    rationale: `The error is correctable but all ${maxRetries} retries are spent, so the loop falls back.`,
  };
}
