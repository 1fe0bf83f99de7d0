import { ATTEMPT_GATE_ROWS, RETRY_ROWS } from '../chart/loopRoutes.js';
import { FAILURE_ROWS, reachable, type Shape, VERDICT_ROWS } from '../decisions/decisionTable.js';
import type { RouteFacts } from '../decisions/routeFacts.js';
import { ROUTE_GUARDS } from '../decisions/routeGuards.js';
import type { LoopSettings } from '../vocabulary/config.js';
import type { FailureRecord, StepName } from '../vocabulary/failures.js';
import type { LoopStatus } from '../vocabulary/statuses.js';
import type { Verdict } from '../vocabulary/validation.js';

/**
 * What a step call can come to, as far as the chart can tell them apart: `correctable` is a
 * rejection with a new fingerprint, `same` one that repeats the last (stall), `fatal` any failure
 * that ends the run (policy, permanent, unknown effect), `transient` a retryable failure with no
 * effect, `refused` a step whose cost reservation passes `maxCost` (it is not called).
 */
export type StepOutcome =
  | 'ok'
  | 'empty'
  | 'ask'
  | 'valid'
  | 'fundamental'
  | 'correctable'
  | 'same'
  | 'transient'
  | 'fatal'
  | 'refused';

/** A point of a run where a step is about to be called, with the counters the chart reads. */
export interface LoopNode {
  step: StepName;
  /** Refine cycles so far. */
  retryCount: number;
  /** Attempt invocations so far (before this one, when `step` is the attempt). */
  attempts: number;
  /** The one transient retry of this step's input is spent. */
  transientRetried: boolean;
  /** How many verdicts in a row had the last fingerprint. */
  stallRepeats: number;
}

/** One call (or refused call) of a step and where the chart goes next. */
export interface LoopMove {
  step: StepName;
  outcome: StepOutcome;
  /** A transient retry's wait follows the call. */
  waits: boolean;
  next: LoopNode | LoopStatus;
}

/** What the moves of a config depend on besides the chart's settings. */
export interface MoveRules {
  /** Steps whose reserved cost alone passes `maxCost`: they are refused, never called. */
  refused: ReadonlySet<StepName>;
  /** Steps loopchart stands in for (a refine the config leaves out): they always succeed. */
  standIn: ReadonlySet<StepName>;
  /** Include `same` verdicts (stall) even where a new fingerprint reaches at least as far. */
  stallMoves: boolean;
}

const OUTCOMES: Record<StepName, readonly StepOutcome[]> = {
  attempt: ['ok', 'empty', 'ask', 'transient', 'fatal'],
  validate: ['valid', 'fundamental', 'correctable', 'same', 'transient', 'fatal'],
  refine: ['ok', 'transient', 'fatal'],
  fallback: ['ok', 'transient', 'fatal'],
};

const FATAL: Record<StepName, LoopStatus> = {
  attempt: 'permanent_failure',
  validate: 'permanent_failure',
  refine: 'permanent_failure',
  fallback: 'iteration_exhausted',
};

const VERDICTS: Partial<Record<StepOutcome, Verdict>> = {
  valid: { valid: true },
  fundamental: { valid: false, error: { severity: 'fundamental', message: 'no' } },
  correctable: { valid: false, error: { severity: 'correctable', message: 'fix' } },
  same: { valid: false, error: { severity: 'correctable', message: 'fix' } },
};

const STATE_STEP: Readonly<Record<string, StepName>> = {
  attempting: 'attempt',
  validating: 'validate',
  refining: 'refine',
  fallingBack: 'fallback',
};

/** The node of a run's first attempt. */
export const START: LoopNode = {
  step: 'attempt',
  retryCount: 0,
  attempts: 0,
  transientRetried: false,
  stallRepeats: 0,
};

/**
 * Every move the loop chart allows from `node`, read from the decision table, the failure routes,
 * the retry rows and the attempt gate (never restated): the transition relation a certificate
 * explores. Costs are taken as 0 and waits as short here, so every cost and deadline branch
 * is a cut of one of these paths (a `budget_stop` or `ceiling_stop` ending it early).
 */
export function loopMoves(
  settings: LoopSettings,
  shape: Shape,
  node: LoopNode,
  rules: MoveRules,
): LoopMove[] {
  const { step } = node;
  if (rules.refused.has(step)) {
    return [{ step, outcome: 'refused', waits: false, next: 'budget_stop' }];
  }
  const attempts = step === 'attempt' ? node.attempts + 1 : node.attempts;
  const here = { ...node, attempts };
  const facts = (extra: Partial<RouteFacts>): RouteFacts => ({
    verdict: undefined,
    retryCount: here.retryCount,
    maxRetries: settings.maxRetries,
    attempts,
    maxAttempts: settings.maxAttempts,
    cost: 0,
    maxCost: settings.maxCost,
    stallRepeats: here.stallRepeats,
    stallAfter: settings.stall?.after ?? null,
    failure: undefined,
    failedIdempotent: false,
    maxRetryDelayMs: settings.maxRetryDelayMs,
    transientRetried: here.transientRetried,
    ...extra,
  });
  const fresh = { ...here, transientRetried: false };
  const moves: LoopMove[] = [];
  for (const outcome of rules.standIn.has(step) ? (['ok'] as const) : OUTCOMES[step]) {
    if (outcome === 'same' && !(rules.stallMoves && shape.canStall && here.stallRepeats > 0)) {
      continue;
    }
    const move = (next: LoopNode | LoopStatus, waits = false) =>
      moves.push({ step, outcome, waits, next });
    if (outcome === 'fatal') move(FATAL[step]);
    else if (outcome === 'empty') move('empty');
    else if (outcome === 'valid') move('proceed');
    else if (outcome === 'fundamental') move('terminate_with_partial');
    else if (outcome === 'ok' && step === 'fallback') move('fallback');
    else if (outcome === 'ok' && step === 'attempt') move({ ...fresh, step: 'validate' });
    else if (outcome === 'ok') move({ ...fresh, step: 'attempt' });
    else if (outcome === 'ask') {
      move(follow(takeRow(ATTEMPT_GATE_ROWS, shape, facts({})), fresh));
    } else if (outcome === 'correctable' || outcome === 'same') {
      const stallRepeats = outcome === 'same' ? here.stallRepeats + 1 : 1;
      const verdict = VERDICTS[outcome];
      const target = takeRow(VERDICT_ROWS, shape, facts({ verdict, stallRepeats }));
      const retryCount = target === 'refining' ? here.retryCount + 1 : here.retryCount;
      move(follow(target, { ...fresh, stallRepeats, retryCount }));
    } else if (outcome === 'transient') {
      const failure: FailureRecord = { step, kind: 'transient', effect: 'none', message: '' };
      const target = takeRow(FAILURE_ROWS, shape, facts({ failure }));
      if (target !== 'waitingToRetry') move(follow(target, here));
      else {
        const after = takeRow(RETRY_ROWS, shape, facts({ failure }));
        move(follow(after, { ...here, transientRetried: true }), true);
      }
    }
  }
  return moves;
}

/** The target of the first row of `rows` (as the chart of `shape` holds them) whose guard holds. */
function takeRow(
  rows: readonly { guard?: string; target: string; when?: object }[],
  shape: Shape,
  facts: RouteFacts,
): string {
  for (const row of reachable(rows as readonly { guard?: string; target: string }[], shape)) {
    if (row.guard === undefined) return row.target;
    // the retry wait is cut by the deadline only: a cut, explored as the wait's own end
    if (row.guard === 'retryWaitHitDeadline') continue;
    const guard = ROUTE_GUARDS[row.guard as keyof typeof ROUTE_GUARDS];
    if (guard === undefined) throw new Error(`loopchart: certify cannot read guard '${row.guard}'`);
    if (guard(facts)) return row.target;
  }
  throw new Error('loopchart: a chart state has no row that is always taken');
}

function follow(target: string, node: LoopNode): LoopNode | LoopStatus {
  const step = STATE_STEP[target];
  return step === undefined ? (target as LoopStatus) : { ...node, step };
}
