import { clarificationRequest, emptyResult, type LoopConfig, withCost } from 'loopchart';
import {
  FORGED_FAILURE_TAGS,
  type ForgedFailureTag,
  forgedFailureOf,
  forgedResultOf,
  optionsOf,
  questionOf,
  unwrapForged,
} from './forgedValues.js';
import { candidateOf, hostileProxy, thrownOf } from './hostileValues.js';
import { verdictOf } from './hostileVerdicts.js';
import type { Behaviour, CostSpec, Scenario, StepName, Thrown, ValueSpec } from './Scenario.js';

/** What a scripted loop's steps did: calls per step and every value they handed to loopchart. */
export interface Probe {
  calls: Record<StepName, number>;
  /** `ctx.iteration` of each refine call. */
  refineIterations: number[];
  /** The unwrapped values attempt and fallback returned (what may appear in the outcome). */
  attemptValues: Set<unknown>;
  fallbackValues: Set<unknown>;
  /** The candidates the validator was asked about. */
  validated: unknown[];
}

const STEPS: StepName[] = ['attempt', 'validate', 'refine', 'fallback'];

/** Builds a loop config whose steps play the scenario's scripts (call n plays entry n mod length). */
export function scriptedLoop(scenario: Scenario): { config: LoopConfig; probe: Probe } {
  const probe: Probe = {
    calls: { attempt: 0, validate: 0, refine: 0, fallback: 0 },
    refineIterations: [],
    attemptValues: new Set(),
    fallbackValues: new Set(),
    validated: [],
  };
  const step =
    (name: StepName) => (ctx: { iteration: number; signal: AbortSignal; candidate?: unknown }) => {
      const script = scenario.steps[name];
      const behaviour = script[probe.calls[name] % script.length] as Behaviour;
      probe.calls[name] += 1;
      if (name === 'refine') probe.refineIterations.push(ctx.iteration);
      if (name === 'validate') probe.validated.push(ctx.candidate);
      return perform(behaviour, ctx.signal, (value) => {
        if (name === 'attempt') probe.attemptValues.add(value);
        if (name === 'fallback') probe.fallbackValues.add(value);
      });
    };
  const [attempt, validate, refine, fallback] = STEPS.map(step);
  const config: LoopConfig = {
    attempt: attempt as LoopConfig['attempt'],
    validate: (candidate, ctx) =>
      (validate as (ctx: unknown) => ReturnType<LoopConfig['validate']>)({ ...ctx, candidate }),
    ...(scenario.hasRefine && { refine: refine as LoopConfig['refine'] }),
    ...(scenario.hasFallback && { fallback: fallback as LoopConfig['fallback'] }),
    maxRetries: scenario.maxRetries,
    retryDelayMs: 0,
    idempotent: scenario.idempotent,
    ...defined({
      maxAttempts: scenario.maxAttempts,
      maxCost: scenario.maxCost,
      stall: scenario.stall,
      trace: scenario.trace,
      review: scenario.review,
      attemptTimeoutMs: scenario.attemptTimeoutMs,
      stepTimeoutMs: scenario.stepTimeoutMs,
    }),
    ...(scenario.classifier !== 'none' && { classifyFailure: classifiers[scenario.classifier] }),
  };
  return { config, probe };
}

function perform(behaviour: Behaviour, signal: AbortSignal, record: (value: unknown) => void) {
  switch (behaviour.how) {
    case 'return':
      return produce(behaviour.value, behaviour.cost, record);
    case 'resolve':
      return Promise.resolve().then(() => produce(behaviour.value, behaviour.cost, record));
    case 'late':
      return later(behaviour.ms, () => produce(behaviour.value, behaviour.cost, record));
    case 'throw':
      throw thrown(behaviour.thrown, behaviour.retryAfterMs);
    case 'reject':
      return Promise.reject(thrown(behaviour.thrown, behaviour.retryAfterMs));
    case 'lateReject':
      return later(behaviour.ms, () => {
        throw thrown(behaviour.thrown, undefined);
      });
    case 'hang':
      return new Promise(() => {});
    case 'honourSignal':
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
  }
}

function later(ms: number, settle: () => unknown): Promise<unknown> {
  return new Promise((resolve) => setTimeout(resolve, ms)).then(settle);
}

function thrown(tag: Thrown, retryAfterMs: number | undefined): unknown {
  return (FORGED_FAILURE_TAGS as readonly string[]).includes(tag)
    ? forgedFailureOf(tag as ForgedFailureTag)
    : thrownOf(tag as Exclude<Thrown, ForgedFailureTag>, retryAfterMs);
}

/** Materialises a value; `record` gets what loopchart will unwrap from it (the value inside `withCost`). */
function produce(spec: ValueSpec, cost: CostSpec, record: (value: unknown) => void): unknown {
  const value = materialise(spec);
  const smuggled = spec.kind === 'candidate' && spec.tag === 'costedProxy';
  const forged = spec.kind === 'forged';
  if (smuggled) record((value as { value: unknown }).value);
  else if (forged) record(unwrapForged(value as object));
  else record(value);
  if (cost === 'none' || smuggled || forged) return value;
  return withCost(value, costOf(cost));
}

function materialise(spec: ValueSpec): unknown {
  switch (spec.kind) {
    case 'candidate':
      return candidateOf(spec.tag, spec.text, spec.json);
    case 'verdict':
      return verdictOf(spec.tag, spec.message, spec.garbage);
    case 'empty':
      return emptyResult(spec.reason);
    case 'clarification':
      return clarificationRequest({
        question: questionOf(spec.questionTag, spec.question),
        ...defined({
          options: typeof spec.options === 'string' ? optionsOf(spec.options) : spec.options,
        }),
      });
    case 'forged':
      return forgedResultOf(spec.tag, spec.text);
  }
}

function costOf(cost: Exclude<CostSpec, 'none'>): number {
  if (typeof cost === 'number') return cost;
  const costs = {
    max: Number.MAX_VALUE,
    NaN: Number.NaN,
    negative: -1,
    Infinity,
    '-Infinity': -Infinity,
  };
  return cost === 'string' ? ('5' as unknown as number) : costs[cost];
}

const classifiers = {
  throws: () => {
    throw hostileProxy();
  },
  garbage: () => ({ kind: 'sometimes', retryAfterMs: -5 }) as never,
  alwaysTransient: () => ({ kind: 'transient' as const, effect: 'none' as const, retryAfterMs: 0 }),
  undefined: () => undefined,
};

function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
