/**
 * Continue and fork (SPEC §16, issue 34): generated loops run to a cap, then are continued under a
 * top-up or forked under another config. The branch never re-runs a recorded step (its trace
 * starts with the original's, and every step it calls is new: a later refine, a later attempt),
 * never passes its caps, and leaves the original row byte-identical.
 */
import fc from 'fast-check';
import {
  continueRun,
  forkRun,
  isCheckpointError,
  isLoopConfigError,
  type LoopConfig,
  type LoopOutcome,
  MemoryCheckpointStore,
  runLoop,
  transientFailure,
  withCost,
} from 'loopchart';
import { describe, expect, it } from 'vitest';

/** A generous guard for each property: seconds on a quiet machine, ten times that beside a CPU hog. */
const PROPERTY_GUARD = { timeout: 300_000 };

interface Call {
  step: 'attempt' | 'refine';
  attempt: number;
  iteration: number;
}

/** A loop whose validator rejects (correctable) until attempt `acceptAt` across runs. */
function loopOf(shape: Shape, calls: Call[]): LoopConfig<string, string> {
  let attempts = 0;
  return {
    id: 'gen',
    maxRetries: shape.maxRetries,
    ...(shape.maxAttempts === undefined ? {} : { maxAttempts: shape.maxAttempts }),
    ...(shape.maxCost === undefined ? {} : { maxCost: shape.maxCost }),
    trace: shape.trace,
    stall: false,
    retryDelayMs: 0,
    attempt: ({ input, attempt, iteration }) => {
      calls.push({ step: 'attempt', attempt, iteration });
      attempts += 1;
      // two transient failures in a row (the attempt and its one retry) end a run retry_exhausted
      if (
        shape.transientAt !== null &&
        [shape.transientAt, shape.transientAt + 1].includes(attempts)
      ) {
        throw transientFailure('503 Service Unavailable', { effect: 'none' });
      }
      return withCost(`${input}#${attempts}`, 1);
    },
    validate: (candidate) =>
      Number(candidate.split('#').at(-1)) >= shape.acceptAt
        ? { valid: true }
        : { valid: false, error: { severity: 'correctable', message: `not yet: ${candidate}` } },
    ...(shape.refine
      ? {
          refine: ({ input, attempt, iteration }) => {
            calls.push({ step: 'refine', attempt, iteration });
            return `${input.split('+')[0]}+${iteration}`;
          },
        }
      : {}),
  };
}

interface Shape {
  maxRetries: number;
  maxAttempts: number | undefined;
  maxCost: number | undefined;
  trace: boolean;
  refine: boolean;
  acceptAt: number;
  /** The attempt (counted across runs) that fails transiently, and its retry with it. */
  transientAt: number | null;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 3 }),
  maxAttempts: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  maxCost: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  trace: fc.boolean(),
  refine: fc.boolean(),
  acceptAt: fc.integer({ min: 1, max: 12 }),
  transientAt: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
});

const topUpArb = fc.record(
  {
    retries: fc.integer({ min: 1, max: 3 }),
    attempts: fc.integer({ min: 1, max: 4 }),
    cost: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
);

/** Runs the original, and says whether a branch can go on from where it stopped. */
async function capped(shape: Shape, store: MemoryCheckpointStore, calls: Call[]) {
  const outcome = (await runLoop(loopOf(shape, calls), 'in', {
    store,
    runId: 'orig',
  })) as LoopOutcome;
  const before = await store.load('orig');
  // it goes on with a refine, or with the attempt that failed transiently twice
  const refines = !outcome.ok && 'error' in outcome && outcome.error.state === 'routing';
  return { outcome, before, refines, refinable: refines || outcome.status === 'retry_exhausted' };
}

/** What every branch must hold: recorded steps kept, new steps only, caps respected. */
function expectBranch(original: LoopOutcome, branch: LoopOutcome, calls: Call[], caps: Caps) {
  expect(branch.trace.slice(0, original.trace.length)).toEqual(original.trace);
  const attempts = calls.filter((c) => c.step === 'attempt');
  expect(attempts.length).toBe(branch.attempts - original.attempts);
  for (const call of attempts) expect(call.attempt).toBeGreaterThan(original.attempts);
  for (const call of calls.filter((c) => c.step === 'refine')) {
    expect(call.iteration).toBeGreaterThan(original.iterations);
  }
  expect(branch.attempts).toBeLessThanOrEqual(caps.maxAttempts);
  expect(branch.iterations).toBeLessThanOrEqual(caps.maxRetries);
  // without per-step estimates a cost cap may be passed by the one step that crossed it
  if (caps.maxCost !== null) expect(branch.cost).toBeLessThanOrEqual(caps.maxCost + 1);
}

interface Caps {
  maxRetries: number;
  maxAttempts: number;
  maxCost: number | null;
}

describe('continueRun over generated capped runs', PROPERTY_GUARD, () => {
  it('never re-runs a recorded step, never passes the topped-up caps, leaves the original row as it was', async () => {
    let continued = 0;
    let restarted = 0;
    await fc.assert(
      fc.asyncProperty(shapeArb, topUpArb, async (shape, topUp) => {
        const store = new MemoryCheckpointStore();
        const calls: Call[] = [];
        const { outcome, before, refinable } = await capped(shape, store, calls);
        const seen = calls.length;
        const run = continueRun(loopOf(shape, calls), {
          store,
          runId: 'orig',
          newRunId: 'next',
          topUp,
        });
        // a cost cap the top-up leaves as it was may have nothing left
        const costLeft =
          topUp.cost !== undefined || shape.maxCost === undefined || outcome.cost < shape.maxCost;
        if (!refinable || !costLeft) {
          await expect(run).rejects.toSatisfy(refinable ? isLoopConfigError : isCheckpointError);
          expect(calls.length).toBe(seen);
          expect((await store.load('orig'))?.data).toBe(before?.data);
          return;
        }
        continued += 1;
        if (outcome.status === 'retry_exhausted') restarted += 1;
        const branch = (await run) as LoopOutcome;
        expect((await store.load('orig'))?.data).toBe(before?.data);
        const retries = topUp.retries ?? 1;
        expectBranch(outcome, branch, calls.slice(seen), {
          maxRetries: outcome.iterations + retries,
          maxAttempts: outcome.attempts + (topUp.attempts ?? retries),
          maxCost: topUp.cost === undefined ? (shape.maxCost ?? null) : outcome.cost + topUp.cost,
        });
      }),
      { numRuns: 120 },
    );
    // the property reached the branch often enough, from a refine and from a transient failure
    expect(continued).toBeGreaterThan(20);
    expect(restarted).toBeGreaterThan(3);
  });
});

describe('forkRun over generated capped runs', PROPERTY_GUARD, () => {
  it('checks the new caps against what was spent, never re-runs a recorded step, leaves the original row as it was', async () => {
    let forked = 0;
    await fc.assert(
      fc.asyncProperty(
        shapeArb,
        shapeArb,
        fc.option(fc.string({ maxLength: 8 })),
        async (shape, next, input) => {
          const store = new MemoryCheckpointStore();
          const calls: Call[] = [];
          const { outcome, before, refinable, refines } = await capped(shape, store, calls);
          const seen = calls.length;
          const config = loopOf({ ...next, refine: shape.refine, trace: shape.trace }, calls);
          const options = {
            store,
            runId: 'orig',
            newRunId: 'fork',
            ...(input === null ? {} : { input }),
          };
          const run = forkRun(config, options);
          const maxAttempts = next.maxAttempts ?? 2 * (next.maxRetries + 1);
          const room =
            outcome.iterations + (refines ? 1 : 0) <= next.maxRetries &&
            outcome.attempts < maxAttempts &&
            (next.maxCost === undefined || outcome.cost < next.maxCost);
          if (!refinable || !room) {
            await expect(run).rejects.toSatisfy(
              (e) => isCheckpointError(e) || isLoopConfigError(e),
            );
            expect(calls.length).toBe(seen);
            expect(await store.load('fork')).toBeUndefined();
          } else {
            forked += 1;
            const branch = (await run) as LoopOutcome;
            expectBranch(outcome, branch, calls.slice(seen), {
              maxRetries: next.maxRetries,
              maxAttempts,
              maxCost: next.maxCost ?? null,
            });
          }
          expect((await store.load('orig'))?.data).toBe(before?.data);
        },
      ),
      { numRuns: 120 },
    );
    expect(forked).toBeGreaterThan(5);
  });
});
