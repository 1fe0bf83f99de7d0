const RESULT = Symbol.for('loopchart.stepResult');

/** An attempt's honest "nothing found": the loop ends as `empty`, never with a made-up candidate. */
export interface EmptyResult {
  readonly [RESULT]: 'empty';
  readonly reason: string;
}

/** A question the attempt asks the user instead of answering. */
export interface ClarificationRequest {
  readonly [RESULT]: 'clarification';
  readonly question: string;
  readonly options?: readonly string[];
  readonly context?: unknown;
}

/** A step's value together with the cost it reports (tokens, cents: any unit `maxCost` uses). */
export interface CostedResult<T> {
  readonly [RESULT]: 'cost';
  readonly value: T;
  readonly cost: number;
}

/**
 * Ends the loop as `empty`: the attempt honestly found nothing.
 * @example return emptyResult('no invoices match that customer');
 */
export function emptyResult(reason: string): EmptyResult {
  return Object.freeze({ [RESULT]: 'empty' as const, reason: String(reason) });
}

/**
 * Pauses the loop until the user answers `question` (event `clarification.answer`).
 * @example return clarificationRequest({ question: 'Which fiscal year?', options: ['2025', '2026'] });
 */
export function clarificationRequest(request: {
  question: string;
  options?: readonly string[];
  context?: unknown;
}): ClarificationRequest {
  return Object.freeze({ [RESULT]: 'clarification' as const, ...request });
}

/**
 * Reports the cost of a step alongside its value; the loop sums it against `maxCost`.
 * @example return withCost(draft, usage.totalTokens);
 */
export function withCost<T>(value: T, cost: number): CostedResult<T> {
  return Object.freeze({ [RESULT]: 'cost' as const, value, cost });
}

/** A step's raw result split into its value and reported cost. */
export interface ReadResult {
  value: unknown;
  cost: number;
  costProblem?: string;
}

/** Unwraps `withCost`; a cost that is not a finite number ≥ 0 is reported as a problem. */
export function readStepResult(raw: unknown): ReadResult {
  if (!isResult(raw, 'cost')) return { value: raw, cost: 0 };
  const { value, cost } = raw as CostedResult<unknown>;
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    return {
      value,
      cost: 0,
      costProblem: `reported cost ${String(cost)}; a cost must be a finite number ≥ 0`,
    };
  }
  return { value, cost };
}

export function isEmptyResult(value: unknown): value is EmptyResult {
  return isResult(value, 'empty');
}

export function isClarificationRequest(value: unknown): value is ClarificationRequest {
  return isResult(value, 'clarification');
}

function isResult(value: unknown, kind: string): boolean {
  try {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[RESULT] === kind
    );
  } catch {
    return false;
  }
}
