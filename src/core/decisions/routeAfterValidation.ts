import { z } from 'zod';
import type { Decision } from '../vocabulary/statuses.js';
import {
  type ValidationError,
  type Verdict,
  validationErrorSchema,
} from '../vocabulary/validation.js';
import { configErrorFrom } from '../vocabulary/zodIssues.js';
import {
  holdsRow,
  type RouteRow,
  routerDecision,
  type Shape,
  VERDICT_ROWS,
} from './decisionTable.js';
import { NO_EXTRAS, RATIONALES } from './rationales.js';
import type { RouteFacts } from './routeFacts.js';
import { ROUTE_GUARDS } from './routeGuards.js';

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
 * The decision table (SPEC §1) as a pure function: walks the rows of `VERDICT_ROWS` that hold
 * without a ceiling, cost budget or stall detection. Bad arguments throw `LoopConfigError`.
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
  const facts = routerFacts(verdict, retryCount, maxRetries);
  const rows: readonly RouteRow[] = VERDICT_ROWS;
  // the router's shape always ends in the unguarded fallback row
  const row = rows.find(
    (r) => holdsRow(r, ROUTER_SHAPE) && (r.guard === undefined || ROUTE_GUARDS[r.guard](facts)),
  ) as RouteRow;
  const decision = routerDecision(row);
  return {
    decision,
    retryCount: decision === 'refine' ? retryCount + 1 : retryCount,
    rationale: RATIONALES[row.because](facts, NO_EXTRAS),
  };
}

// The pure table has no ceiling, cost budget or stall detection, and always a fallback.
const ROUTER_SHAPE: Shape = {
  canReattempt: true,
  canRefine: true,
  canExhaust: true,
  canFallBack: true,
  canStall: false,
  hasBudget: false,
  hasNonIdempotentStep: false,
  hasDeadline: false,
  reviewsBeforeProceed: false,
  reviewsAfterFailedValidation: false,
};

function routerFacts(verdict: Verdict, retryCount: number, maxRetries: number): RouteFacts {
  return {
    verdict,
    retryCount,
    maxRetries,
    attempts: 0,
    maxAttempts: Number.POSITIVE_INFINITY,
    cost: 0,
    maxCost: null,
    stallRepeats: 0,
    stallAfter: null,
    failure: undefined,
    failedIdempotent: false,
    maxRetryDelayMs: 0,
    transientRetried: false,
  };
}
