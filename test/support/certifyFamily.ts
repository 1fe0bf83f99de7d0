import { fc } from '@fast-check/vitest';
import { type LoopConfig, resolveConfig } from 'loopchart';
import {
  type CertifyOptions,
  type LoopCertificate,
  type LoopMove,
  type LoopNode,
  loopMoves,
  type PathStep,
  START,
} from 'loopchart/analysis';
import { expect } from 'vitest';
import { shapeOf } from '../../src/core/chart/loopShape.js';
import type { Observed } from './scriptedPath.js';

export type StepName = PathStep['step'];
export const STEPS: readonly StepName[] = ['attempt', 'validate', 'refine', 'fallback'];
type Options = Omit<LoopConfig<string, string>, 'attempt' | 'validate'>;

/** A generated loop: its options (no steps), the certificate's options, and the estimates. */
export interface Family {
  options: Options;
  certify: CertifyOptions & { durations: Record<StepName, number> };
  costs: Record<StepName, number>;
}

const perStep = (arb: fc.Arbitrary<number>) =>
  fc.record({ attempt: arb, validate: arb, refine: arb, fallback: arb });

/** Configs across retries, attempts, fallback, stall, maxCost, retry waits and the deadline. */
export const familyArb: fc.Arbitrary<Family> = fc
  .record({
    maxRetries: fc.integer({ min: 0, max: 3 }),
    maxAttempts: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
    refine: fc.boolean(),
    fallback: fc.boolean(),
    stall: fc.oneof(
      fc.constant(false as const),
      fc.record({ after: fc.integer({ min: 2, max: 3 }) }),
    ),
    maxCost: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
    costs: perStep(fc.integer({ min: 0, max: 6 })),
    durations: perStep(fc.integer({ min: 0, max: 50 })),
    retryDelayMs: fc.integer({ min: 0, max: 40 }),
    maxRetryDelayMs: fc.integer({ min: 0, max: 40 }),
    deadlineMs: fc.option(fc.integer({ min: 20, max: 700 }), { nil: null }),
    idempotent: fc.boolean(),
  })
  .map((g) => {
    const costEstimates: Partial<Record<StepName, number>> = {
      attempt: g.costs.attempt,
      validate: g.costs.validate,
    };
    if (g.refine) costEstimates.refine = g.costs.refine;
    if (g.fallback) costEstimates.fallback = g.costs.fallback;
    const options: Options = {
      maxRetries: g.maxRetries,
      ...(g.maxAttempts === undefined ? {} : { maxAttempts: g.maxAttempts }),
      ...(g.refine ? { refine: ({ input }) => input } : {}),
      ...(g.fallback ? { fallback: () => 'unused: the script plays it' } : {}),
      stall: g.stall,
      ...(g.maxCost === undefined ? {} : { maxCost: g.maxCost }),
      costEstimates,
      retryDelayMs: g.retryDelayMs,
      maxRetryDelayMs: g.maxRetryDelayMs,
      deadlineMs: g.deadlineMs,
      idempotent: g.idempotent,
    };
    return { options, certify: { durations: g.durations }, costs: g.costs };
  });

/** The config a family member certifies (its steps are never called by `certifyLoop`). */
export function configOf(family: Family): LoopConfig<string, string> {
  return { ...family.options, attempt: () => 'x', validate: () => ({ valid: true }) };
}

/** Every path of the chart, each as its moves and its values, enumerated by brute force (or `undefined` past `cap`). */
export function allPaths(family: Family, cap: number): PathStep[][] | undefined {
  const { paths, complete } = somePaths(family, cap);
  return complete ? paths : undefined;
}

/** The first `cap` paths of the chart, depth first, and whether they are all of them. */
export function somePaths(family: Family, cap: number): { paths: PathStep[][]; complete: boolean } {
  const settings = resolveConfig(configOf(family));
  const shape = shapeOf(settings);
  const { options, costs } = family;
  const reserved = options.costEstimates ?? {};
  const refused = new Set(
    STEPS.filter((s) => settings.maxCost !== null && (reserved[s] ?? 0) > settings.maxCost),
  );
  const standIn = new Set<StepName>(options.refine ? [] : ['refine']);
  const rules = { refused, standIn, stallMoves: true };
  const waitMs = Math.max(settings.retryDelayMs, settings.maxRetryDelayMs);
  const paths: PathStep[][] = [];
  const walk = (node: LoopNode, prefix: PathStep[]): boolean => {
    for (const move of loopMoves(settings, shape, node, rules)) {
      const step = stepOf(move, family, costs, standIn, waitMs);
      const path = [...prefix, step];
      if (typeof move.next === 'string') {
        paths.push(path);
        if (paths.length > cap) return false;
      } else if (!walk(move.next, path)) return false;
    }
    return true;
  };
  const complete = walk(START, []);
  return { paths: paths.slice(0, cap), complete };
}

const REPORTS = new Set(['ok', 'empty', 'ask', 'valid', 'fundamental', 'correctable', 'same']);

function stepOf(
  move: LoopMove,
  family: Family,
  costs: Record<StepName, number>,
  standIn: ReadonlySet<StepName>,
  waitMs: number,
): PathStep {
  const free = move.outcome === 'refused' || standIn.has(move.step);
  return {
    step: move.step,
    outcome: move.outcome,
    cost: !free && REPORTS.has(move.outcome) ? costs[move.step] : 0,
    ms: free ? 0 : family.certify.durations[move.step],
    ...(move.waits ? { waitMs } : {}),
  };
}

/** The calls, cost and time a path adds up to (before `maxCost` and the deadline cut it). */
export function valuesOf(path: readonly PathStep[], family: Family) {
  const calls = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  let cost = 0;
  let time = 0;
  for (const step of path) {
    if (step.outcome === 'refused' || (step.step === 'refine' && !family.options.refine)) continue;
    calls[step.step]++;
    cost += step.cost;
    time += (step.ms ?? Infinity) + (step.waitMs ?? 0);
  }
  return { calls, cost, time };
}

/** Every observed quantity is within the certificate. */
export function expectWithin(observed: Observed, certificate: LoopCertificate) {
  for (const step of STEPS) {
    expect(observed.calls[step]).toBeLessThanOrEqual(certificate.calls[step].value as number);
  }
  const total = STEPS.reduce((sum, step) => sum + observed.calls[step], 0);
  expect(total).toBeLessThanOrEqual(certificate.calls.total.value as number);
  expect(observed.cost).toBeLessThanOrEqual(certificate.cost.value as number);
  expect(observed.elapsedMs).toBeLessThanOrEqual(certificate.timeMs.value as number);
}

/**
 * `ctx.budget` at every call equals what the trace says was left then: refines and attempts
 * from the call's own trace entry, cost from the entries before it, time from when it started.
 */
export function expectBudgetsMatchTrace(observed: Observed, options: Options) {
  const settings = resolveConfig({
    ...options,
    attempt: () => 'x',
    validate: () => ({ valid: true }),
  });
  const user = new Set([
    'attempting',
    'validating',
    'fallingBack',
    ...(options.refine ? ['refining'] : []),
  ]);
  const trace = observed.outcome.trace;
  const calls = trace.filter(
    (entry) =>
      entry.decision === undefined &&
      user.has(entry.state) &&
      // refused by the budget, or due when the deadline ran out: never called
      !/was not called|had not begun/.test(entry.rationale ?? ''),
  );
  expect(calls.length).toBe(observed.contexts.length);
  observed.contexts.forEach(({ ctx }, i) => {
    const entry = calls[i] as (typeof calls)[number];
    const spent = trace.filter((e) => e.seq < entry.seq).reduce((sum, e) => sum + (e.cost ?? 0), 0);
    const refinesLeft = settings.maxRetries - entry.retryCount;
    const attemptsLeft = settings.maxAttempts - entry.attempt;
    expect(ctx.budget).toEqual({
      refinesLeft,
      attemptsLeft,
      costLeft: settings.maxCost === null ? null : settings.maxCost - spent,
      timeLeftMs:
        settings.deadlineMs === null
          ? null
          : settings.deadlineMs - (entry.startedAt - observed.startedAt),
      isLastAttempt: refinesLeft === 0 || attemptsLeft === 0,
    });
    expect(Object.isFrozen(ctx.budget)).toBe(true);
  });
}
