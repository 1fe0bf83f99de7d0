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
  /** The result was a `withCost` wrapper. */
  costed: boolean;
  costProblem?: string;
}

/** Unwraps `withCost`; a cost that is not a finite number ≥ 0 is reported as a problem. */
export function readStepResult(raw: unknown): ReadResult {
  if (!isResult(raw, 'cost')) return { value: raw, cost: 0, costed: false };
  const { value, cost } = raw as CostedResult<unknown>;
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    return {
      value,
      cost: 0,
      costed: true,
      costProblem: `reported cost ${String(cost)}; a cost must be a finite number ≥ 0`,
    };
  }
  return { value, cost, costed: true };
}

/**
 * Why a step's value is no result, or `undefined` when it is one: an attempt or a fallback that
 * returned `undefined` gave no candidate, and nothing may pass for one (SPEC §3). An honest
 * "nothing found" is `emptyResult(reason)`.
 */
export function missingResult(step: string, value: unknown): string | undefined {
  if (value !== undefined || (step !== 'attempt' && step !== 'fallback')) return undefined;
  return `${step} returned undefined, which is no candidate; return one, or emptyResult(reason) for an honest empty`;
}

/**
 * What a step actor outputs, from one read of the step's result (a getter is never asked twice):
 * the value by identity, in a fresh frozen `withCost` if it came in one. With `plain`, an empty
 * result's `reason` and a clarification's `question` are rebuilt as strings and its `options` as a
 * string array, whatever the step (or a model's JSON behind it) returned. Never throws.
 */
export function stepOutput({ value, cost, costed }: ReadResult, plain: boolean): unknown {
  const clean = plain ? plainResult(value) : value;
  return costed ? withCost(clean, cost) : clean;
}

function plainResult(value: unknown): unknown {
  if (isEmptyResult(value)) return emptyResult(safeString(() => value.reason));
  if (!isClarificationRequest(value)) return value;
  const options = safeOptions(value);
  const context = safeRead(() => value.context);
  return clarificationRequest({
    question: safeString(() => value.question),
    ...(options ? { options } : {}),
    ...(context === undefined ? {} : { context }),
  });
}

function safeRead(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function safeString(read: () => unknown): string {
  try {
    const value = read();
    return typeof value === 'string' ? value : String(value);
  } catch {
    return '(unreadable)';
  }
}

function safeOptions(request: ClarificationRequest): string[] | undefined {
  const options = safeRead(() => request.options);
  if (!Array.isArray(options)) return undefined;
  return options.map((option) => safeString(() => option));
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
