import fc from 'fast-check';
import { createActor, toPromise } from 'xstate';
import type { z } from 'zod';
import { compileLoop } from '../../src/core/chart/compileLoop.js';
import type {
  LoopConfig,
  LoopSettings,
  loopOptionsSchema,
} from '../../src/core/vocabulary/config.js';
import {
  permanentFailure,
  policyRejection,
  transientFailure,
  uncertainSideEffect,
} from '../../src/core/vocabulary/failures.js';
import { emptyResult, withCost } from '../../src/core/vocabulary/stepResults.js';
import { encodeCheckpoint, type PersistedSnapshot } from '../../src/stores/kit/checkpointFormat.js';
import type { WhatIfChange } from '../../src/tools/whatif/candidateSettings.js';

/** One scripted result of a step: a value with a cost, or a thrown failure. */
export type Scripted =
  | { ok: true; cost: number; pick: number }
  | { ok: false; kind: 'transient'; effect: 'none' | 'unknown'; retryAfterMs?: number }
  | { ok: false; kind: 'uncertain' | 'permanent' | 'policy' };

export interface Script {
  attempt: Scripted[];
  /** The validator's answer per call: v valid, c correctable, f fundamental, n none, m malformed. */
  verdicts: string;
  validate: Scripted[];
  refine: Scripted[];
  fallback: Scripted[];
  /** The attempt ends the loop as empty on this call (1-based), if any. */
  emptyAt: number | undefined;
}

const ok = fc.record({
  ok: fc.constant(true as const),
  cost: fc.constantFrom(0, 1, 2, 5),
  pick: fc.nat(1),
});
const failure = fc.oneof(
  fc.record(
    {
      ok: fc.constant(false as const),
      kind: fc.constant('transient' as const),
      effect: fc.constantFrom('none' as const, 'unknown' as const),
      retryAfterMs: fc.constantFrom(0, 1),
    },
    { requiredKeys: ['ok', 'kind', 'effect'] },
  ),
  fc.record({
    ok: fc.constant(false as const),
    kind: fc.constantFrom('uncertain' as const, 'permanent' as const, 'policy' as const),
  }),
);
const results = (failures: number) =>
  fc.array(
    fc.oneof({ weight: 10 - failures, arbitrary: ok }, { weight: failures, arbitrary: failure }),
    {
      minLength: 1,
      maxLength: 8,
    },
  );

export const scriptArb: fc.Arbitrary<Script> = fc.record({
  attempt: results(2),
  verdicts: fc
    .array(
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('c') },
        { weight: 2, arbitrary: fc.constantFrom('v', 'f', 'n', 'm') },
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((letters) => letters.join('')),
  validate: results(1),
  refine: results(1),
  fallback: results(1),
  emptyAt: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }) },
  ),
});

/** The loop options a generated family of configs varies (no deadline: time is not scripted). */
export const optionsArb = fc.record(
  {
    maxRetries: fc.integer({ min: 0, max: 4 }),
    maxAttempts: fc.integer({ min: 1, max: 10 }),
    maxCost: fc.integer({ min: 1, max: 25 }),
    stall: fc.oneof(
      fc.constant(false as const),
      fc.record({
        after: fc.integer({ min: 2, max: 4 }),
        on: fc.constantFrom('candidate-and-verdict' as const, 'verdict' as const),
      }),
    ),
    fallback: fc.boolean(),
    idempotent: fc.oneof(
      fc.boolean(),
      fc.record({ attempt: fc.boolean(), refine: fc.boolean(), fallback: fc.boolean() }),
    ),
    maxRetryDelayMs: fc.constantFrom(0, 1000),
  },
  { requiredKeys: ['fallback'] },
);
export type Options = typeof optionsArb extends fc.Arbitrary<infer O> ? O : never;

/** A candidate change of the knobs (any direction: tighter, looser, or none). */
export const changeArb: fc.Arbitrary<WhatIfChange> = fc.record(
  {
    maxRetries: fc.integer({ min: 0, max: 4 }),
    maxAttempts: fc.integer({ min: 1, max: 10 }),
    maxCost: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 25 })),
    stall: fc.oneof(
      fc.constant(false as const),
      fc.record({
        after: fc.integer({ min: 2, max: 4 }),
        on: fc.constantFrom('candidate-and-verdict' as const, 'verdict' as const),
      }),
    ),
    fallback: fc.boolean(),
    idempotent: fc.oneof(fc.boolean(), fc.record({ attempt: fc.boolean(), refine: fc.boolean() })),
    maxRetryDelayMs: fc.constantFrom(0, 1000),
  },
  { requiredKeys: [] },
);

const ANSWERS: Record<string, (n: number) => unknown> = {
  v: () => ({ valid: true }),
  c: (n) => ({ valid: false, error: { severity: 'correctable', message: `fix ${n}` } }),
  f: () => ({ valid: false, error: { severity: 'fundamental', message: 'wrong task' } }),
  n: () => ({ valid: false }),
  m: () => 'looks fine',
};

const at = <T>(list: readonly T[], call: number): T => list[(call - 1) % list.length] as T;

function play(result: Scripted, value: unknown): unknown {
  if (result.ok) return withCost(value, result.cost);
  if (result.kind === 'transient') {
    throw transientFailure('scripted', {
      effect: result.effect,
      ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }),
    });
  }
  if (result.kind === 'uncertain') throw uncertainSideEffect('scripted');
  if (result.kind === 'permanent') throw permanentFailure('scripted');
  throw policyRejection('scripted');
}

/** Counts of each step's calls in one run. */
export type Calls = Record<'attempt' | 'validate' | 'refine' | 'fallback', number>;

/**
 * A loop config whose steps replay `script` by call number, so two runs under different bounds see
 * the same step outputs; `calls` counts the calls of the run.
 */
export function scriptedConfig(
  script: Script,
  options: z.input<typeof loopOptionsSchema> & { fallback?: boolean },
): { config: LoopConfig<string, string>; calls: Calls } {
  const calls: Calls = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  const { fallback, ...bounds } = options;
  const config: LoopConfig<string, string> = {
    ...bounds,
    retryDelayMs: 0,
    deadlineMs: bounds.deadlineMs ?? null,
    attempt: () => {
      calls.attempt += 1;
      if (script.emptyAt === calls.attempt) return emptyResult('nothing') as never;
      const result = at(script.attempt, calls.attempt);
      return play(result, `draft ${result.ok ? result.pick : 0}`) as never;
    },
    validate: () => {
      calls.validate += 1;
      const letter = script.verdicts[(calls.validate - 1) % script.verdicts.length] ?? 'v';
      const result = at(script.validate, calls.validate);
      return play(result, ANSWERS[letter]?.(result.ok ? result.pick : 0)) as never;
    },
    refine: (ctx) => {
      calls.refine += 1;
      return play(at(script.refine, calls.refine), ctx.input) as never;
    },
    ...(fallback
      ? {
          fallback: () => {
            calls.fallback += 1;
            return play(at(script.fallback, calls.fallback), 'template') as never;
          },
        }
      : {}),
  };
  return { config, calls };
}

/** The loop options that resolve to `settings` (for a real run under a candidate's settings). */
export function optionsOf(settings: LoopSettings) {
  return {
    maxRetries: settings.maxRetries,
    maxAttempts: settings.maxAttempts,
    ...(settings.maxCost === null ? {} : { maxCost: settings.maxCost }),
    stall: settings.stall ?? (false as const),
    fallback: settings.hasFallback,
    idempotent: settings.idempotent,
    maxRetryDelayMs: settings.maxRetryDelayMs,
    deadlineMs: settings.deadlineMs,
  };
}

/**
 * Runs `config` without a store and encodes its final snapshot as the checkpoint a store would
 * hold at its end (the oracle test reads runs through a real store; this keeps the differential fast).
 */
export async function recordedOutcome(config: LoopConfig<string, string>, runId: string) {
  const plan = compileLoop({ ...config, id: 'scripted' });
  const actor = createActor(plan.sharedChart, { input: { input: 'task', steps: plan.steps } });
  actor.start();
  const outcome = await toPromise(actor);
  const header = { runId, machineId: 'scripted', machine: 'scripted', seq: 1, paused: false };
  const record = encodeCheckpoint(
    header,
    actor.getPersistedSnapshot() as unknown as PersistedSnapshot,
  );
  return { outcome, record };
}
