import { isLoopPlan, type LoopPlan } from '../chart/compileLoop.js';
import { shapeOf } from '../chart/loopShape.js';
import { type LoopConfig, type LoopSettings, resolveConfig } from '../vocabulary/config.js';
import type { StepName } from '../vocabulary/failures.js';
import type { LoopStatus } from '../vocabulary/statuses.js';
import type {
  Bound,
  CallKind,
  CertifyOptions,
  LoopCertificate,
  PathStep,
} from './certificateTypes.js';
import { type LoopMove, type LoopNode, loopMoves, START, type StepOutcome } from './loopMoves.js';

/** What a certificate needs of a loop: its resolved settings and which steps are the user's. */
export interface CertifyFacts {
  id: string;
  settings: LoopSettings;
  /** The config has its own refine (else loopchart's stand-in runs: no cost, no time). */
  hasRefine: boolean;
  /** The per-call costs `maxCost` reserves before each step (the config's `costEstimates`). */
  reserved?: Partial<Record<StepName, number>> | undefined;
}

const STEPS: readonly StepName[] = ['attempt', 'validate', 'refine', 'fallback'];
const CALL_KINDS: readonly CallKind[] = [...STEPS, 'total', 'model'];
const COST = CALL_KINDS.length;
const TIME = COST + 1;
const REPORTS_COST = new Set<StepOutcome>([
  'ok',
  'empty',
  'ask',
  'valid',
  'fundamental',
  'correctable',
  'same',
]);

/**
 * The worst case of a loop (its config, or the plan `compileLoop` made of it) over every path of
 * its chart: calls per step, cost and live time, each with a path that reaches it.
 * @example certifyLoop({ attempt, validate, maxRetries: 2, costEstimates: { attempt: 0.02 } }).cost.value
 */
export function certifyLoop<I, C>(
  loop: LoopConfig<I, C> | LoopPlan<I, C>,
  options: CertifyOptions = {},
): LoopCertificate {
  const plan = isLoopPlan(loop) ? (loop as LoopPlan<I, C>) : undefined;
  const config = plan?.config ?? (loop as LoopConfig<I, C>);
  return certifySettings(
    {
      id: plan?.id ?? config.id ?? 'loop',
      settings: plan?.settings ?? resolveConfig(config),
      hasRefine: config.refine !== undefined,
      reserved: config.costEstimates,
    },
    options,
  );
}

/** `certifyLoop` on resolved settings: a pure function of the chart and the per-call ceilings. */
export function certifySettings(
  facts: CertifyFacts,
  options: CertifyOptions = {},
): LoopCertificate {
  const { settings } = facts;
  const shape = shapeOf(settings);
  const costs = { ...facts.reserved, ...options.costs };
  const userStep = (step: StepName) => step !== 'refine' || facts.hasRefine;
  const costOf = (step: StepName) => (userStep(step) ? (costs[step] ?? Infinity) : 0);
  const timeout = (step: StepName) =>
    step === 'attempt' ? settings.attemptTimeoutMs : settings.stepTimeoutMs;
  const msOf = (step: StepName) =>
    userStep(step) ? Math.min(options.durations?.[step] ?? Infinity, timeout(step) ?? Infinity) : 0;
  const waitMs = Math.max(settings.retryDelayMs, settings.maxRetryDelayMs);
  const modelSteps = new Set(
    (options.modelSteps ?? ['attempt', 'refine', 'fallback']).filter(userStep),
  );
  const refused = new Set(
    STEPS.filter((step) => {
      const reserve = facts.reserved?.[step];
      return settings.maxCost !== null && reserve !== undefined && reserve > settings.maxCost;
    }),
  );
  const standIn = new Set(STEPS.filter((step) => !userStep(step)));
  const rules = { refused, standIn, stallMoves: false };

  const gainOf = (move: LoopMove): number[] => {
    const value = new Array<number>(TIME + 1).fill(0);
    if (move.outcome === 'refused' || standIn.has(move.step)) return value;
    value[CALL_KINDS.indexOf(move.step)] = 1;
    value[CALL_KINDS.indexOf('total')] = 1;
    if (modelSteps.has(move.step)) value[CALL_KINDS.indexOf('model')] = 1;
    value[COST] = REPORTS_COST.has(move.outcome) ? costOf(move.step) : 0;
    value[TIME] = msOf(move.step) + (move.waits ? waitMs : 0);
    return value;
  };

  interface Best {
    value: number[];
    choice: { move: LoopMove; node: LoopNode | undefined }[];
  }
  const memo = new Map<string, Best>();
  const best = (node: LoopNode): Best => {
    const key = `${node.step}|${node.retryCount}|${node.attempts}|${node.transientRetried}|${node.stallRepeats}`;
    const known = memo.get(key);
    if (known) return known;
    const result: Best = { value: new Array<number>(TIME + 1).fill(-1), choice: [] };
    for (const move of loopMoves(settings, shape, node, rules)) {
      const next = typeof move.next === 'string' ? undefined : move.next;
      const here = gainOf(move);
      const rest = next ? best(next).value : undefined;
      here.forEach((v, m) => {
        const total = v + (rest?.[m] ?? 0);
        if (total > (result.value[m] as number)) {
          result.value[m] = total;
          result.choice[m] = { move, node: next };
        }
      });
    }
    memo.set(key, result);
    return result;
  };

  const pathOf = (metric: number): { path: PathStep[]; status: LoopStatus } => {
    const path: PathStep[] = [];
    let node: LoopNode | undefined = START;
    let status: LoopStatus = 'proceed';
    while (node) {
      const { move, node: next }: Best['choice'][number] = best(node).choice[
        metric
      ] as Best['choice'][number];
      const ms = move.outcome === 'refused' ? 0 : msOf(move.step);
      path.push({
        step: move.step,
        outcome: move.outcome,
        cost: REPORTS_COST.has(move.outcome) ? costOf(move.step) : 0,
        ms: Number.isFinite(ms) ? ms : null,
        ...(move.waits ? { waitMs } : {}),
      });
      if (typeof move.next === 'string') status = move.next;
      node = next;
    }
    return { path, status };
  };

  const root = best(START).value;
  const bound = (metric: number, value: number | null, reason?: string): Bound => ({
    value,
    ...pathOf(metric),
    ...(reason === undefined ? {} : { reason }),
  });
  const calls = Object.fromEntries(
    CALL_KINDS.map((kind, metric) => [kind, bound(metric, root[metric] as number)]),
  ) as Record<CallKind, Bound>;
  return {
    kind: 'loop',
    id: facts.id,
    calls,
    cost: costBound(root[COST] as number, settings, facts, costs, bound),
    timeMs: timeBound(root[TIME] as number, settings, bound),
    pauses: 'unbounded-by-design',
    assumptions: assumptionsOf(settings),
  };
}

type MakeBound = (metric: number, value: number | null, reason?: string) => Bound;

function costBound(
  worst: number,
  settings: LoopSettings,
  facts: CertifyFacts,
  costs: Partial<Record<StepName, number>>,
  bound: MakeBound,
): Bound {
  if (!Number.isFinite(worst)) {
    const runs = (s: StepName) =>
      s === 'refine' ? facts.hasRefine : s !== 'fallback' || settings.hasFallback;
    const missing = STEPS.filter((s) => costs[s] === undefined && runs(s));
    return bound(COST, null, `no cost is declared for ${missing.join(', ')}`);
  }
  const allReserved = STEPS.every(
    (s) =>
      (costs[s] ?? 0) === 0 ||
      facts.reserved?.[s] !== undefined ||
      (s === 'refine' && !facts.hasRefine),
  );
  if (settings.maxCost === null || !allReserved || worst <= settings.maxCost) {
    return bound(COST, worst);
  }
  const witness = bound(COST, settings.maxCost);
  return { ...witness, path: fillFromTheEnd(witness.path, settings.maxCost) };
}

/**
 * The costs along a path that spend exactly `budget` while every reservation passes: the last
 * calls spend their whole estimate, the one before them the rest, earlier ones nothing.
 */
function fillFromTheEnd(path: PathStep[], budget: number): PathStep[] {
  let left = budget;
  return path
    .slice()
    .reverse()
    .map((step) => {
      const cost = Math.min(step.cost, left);
      left -= cost;
      return { ...step, cost };
    })
    .reverse();
}

function timeBound(worst: number, settings: LoopSettings, bound: MakeBound): Bound {
  const { deadlineMs } = settings;
  if (deadlineMs === null) {
    return Number.isFinite(worst)
      ? bound(TIME, worst)
      : bound(TIME, null, 'a step has no timeout or declared duration and deadlineMs is null');
  }
  if (worst <= deadlineMs) return bound(TIME, worst);
  return { ...bound(TIME, deadlineMs), status: 'ceiling_stop' };
}

function assumptionsOf(settings: LoopSettings): string[] {
  const assumptions = [
    'each call reports at most its declared cost and returns within its declared duration',
    'time paused for a person (a clarification, a review) is not counted',
  ];
  if (settings.review.beforeProceed || settings.review.afterFailedValidation) {
    assumptions.push(
      'every review is answered review.continue (an edit or a retry adds steps a person asks for)',
    );
  }
  return assumptions;
}
