import { fc, test } from '@fast-check/vitest';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import {
  initialContext,
  type LoopContext,
  STEP_STATE,
  withEntry,
} from '../src/core/chart/loopContext.js';
import { withDecisionEntry, withStepEntry } from '../src/core/chart/withStepEntry.js';
import { resolveConfig } from '../src/core/vocabulary/config.js';
import { DECISIONS, LOOP_STATUSES, type TraceDecision } from '../src/core/vocabulary/statuses.js';
import type { TraceEntry } from '../src/core/vocabulary/trace.js';
import { LOOP_PHASES } from '../src/stores/kit/loopRunSchema.js';

// withStepEntry.ts writes the common entries as object literals for V8's layout; these pin
// them to what `withEntry` builds from the same context, down to the order of the keys.

type StepState = Parameters<typeof withStepEntry>[1];

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const STEP_STATES: StepState[] = Object.values(STEP_STATE);
const TRACE_DECISIONS: TraceDecision[] = [
  ...DECISIONS,
  ...LOOP_STATUSES,
  'retry',
  'review',
  'clarify',
];

const entryArb: fc.Arbitrary<TraceEntry> = fc.record({
  seq: fc.nat(),
  state: fc.constantFrom(...LOOP_PHASES),
  iterationIndex: fc.nat(),
  attempt: fc.nat(),
  retryCount: fc.nat(),
  startedAt: fc.nat(),
  durationMs: fc.nat(),
});

const NOW = 1_700_000_000_000;

const contextArb = fc
  .record({
    trace: fc.boolean(),
    input: fc.jsonValue(),
    key: fc.option(fc.string(), { nil: undefined }),
    earlier: fc.array(entryArb, { maxLength: 12 }),
    retryCount: fc.nat({ max: 20 }),
    attempts: fc.nat({ max: 40 }),
    phase: fc.constantFrom(...LOOP_PHASES),
    cost: fc.nat({ max: 50 }),
    // a step may have started before, at or (on a skewed clock) after now
    stepStartedAt: fc.integer({ min: NOW - 60_000, max: NOW + 1_000 }),
    transientRetried: fc.boolean(),
  })
  .map(({ trace, input, key, earlier, stepStartedAt, transientRetried, ...counters }) => {
    const base = initialContext(
      resolveConfig({ attempt: () => '', validate: () => ({ valid: true }), trace }),
      input,
      NOW,
    );
    const context: LoopContext = {
      ...base,
      ...counters,
      key,
      trace: earlier,
      ledger: { ...base.ledger, stepStartedAt, transientRetried },
    };
    return context;
  });

const stepArb = fc.record({
  context: contextArb,
  state: fc.constantFrom(...STEP_STATES),
  cost: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
  fingerprint: fc.option(fc.string(), { nil: undefined }),
  now: fc.integer({ min: NOW - 1_000, max: NOW + 60_000 }),
});

const decisionArb = fc.record({
  context: contextArb,
  state: fc.constantFrom(...LOOP_PHASES),
  decision: fc.constantFrom(...TRACE_DECISIONS),
  rationale: fc.string(),
  retryCount: fc.option(fc.nat({ max: 21 }), { nil: undefined }),
  now: fc.integer({ min: NOW - 1_000, max: NOW + 60_000 }),
});

/** A step's entry as `withEntry` builds it: attempts carry the key, validations the fingerprint too. */
function generalStepEntry(
  context: LoopContext,
  state: StepState,
  cost: number,
  fingerprint: string | undefined,
): TraceEntry[] {
  const timing = {
    startedAt: context.ledger.stepStartedAt,
    ...(cost > 0 ? { cost } : {}),
    ...(context.ledger.transientRetried ? { intermittent: true as const } : {}),
  };
  if (state === 'attempting') return withEntry(context, { state, key: context.key, ...timing });
  if (state === 'validating') {
    return withEntry(context, { state, key: context.key, fingerprint, ...timing });
  }
  return withEntry(context, { state, ...timing });
}

function expectSameEntries(fast: TraceEntry[], general: TraceEntry[]): void {
  expect(fast).toStrictEqual(general);
  expect(fast.map((entry) => Object.keys(entry))).toStrictEqual(
    general.map((entry) => Object.keys(entry)),
  );
}

describe('the literal trace entries', () => {
  test.prop([stepArb], { numRuns: 400 })(
    "withStepEntry builds withEntry's entry, keys in the same order",
    ({ context, state, cost, fingerprint, now }) => {
      vi.setSystemTime(now);
      const fast = withStepEntry(context, state, cost, fingerprint);
      const general = generalStepEntry(context, state, cost, fingerprint);
      expectSameEntries(fast, general);
      if (!context.settings.trace) expect(fast).toBe(context.trace);
      else expect(fast).toHaveLength(context.trace.length + 1);
    },
  );

  test.prop([decisionArb], { numRuns: 400 })(
    "withDecisionEntry builds withEntry's entry, keys in the same order",
    ({ context, state, decision, rationale, retryCount, now }) => {
      vi.setSystemTime(now);
      const fast =
        retryCount === undefined
          ? withDecisionEntry(context, state, decision, rationale)
          : withDecisionEntry(context, state, decision, rationale, retryCount);
      const general = withEntry(context, {
        state,
        decision,
        rationale,
        ...(retryCount === undefined ? {} : { retryCount }),
      });
      expectSameEntries(fast, general);
      if (!context.settings.trace) expect(fast).toBe(context.trace);
      else expect(fast).toHaveLength(context.trace.length + 1);
    },
  );
});
