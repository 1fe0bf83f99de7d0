/**
 * The combination suite: loopchart's promises where features meet, with the outside world's faults
 * on. fast-check generates loops across the feature space (review modes, clarification, fallback,
 * maxCost with or without costEstimates to reserve, both stall modes, transient and uncertain
 * failures, hung steps under step timeouts and deadlineMs, steps that return undefined or throw odd
 * values, an abort at a random point; scripted steps or an AI SDK model through modelSteps; runLoop
 * alone, the memory, SQLite and Postgres stores with a process that dies at a random save and is
 * resumed, a pipeline of one to four stages with a cross-check, an app actor, an agent's shape
 * decision) together with faults (faults.ts: store calls that hang, answer late or throw; a wall
 * clock that jumps; a row edited by hand before a resume; answer schemas that hang). Every run must
 * settle, within the time its config allows, keep SPEC §3's bounds, end in one terminal status,
 * report its cost and decisions truly, never spend past maxCost when its estimates are honest nor
 * call a step the budget refused, never run a non-idempotent step twice, and leave every row it
 * refused as it was; no rejection may go unhandled. Time is simulated (simulatedTime.ts): the
 * budget is exact and a loaded machine cannot fail a run. Runs: COMBINATION_RUNS (default 1,000)
 * per property; a failure prints fast-check's seed and path to replay it.
 */
import fc from 'fast-check';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import { problemsOf } from './support/brokenPromises.js';
import {
  type Combination,
  combinationArbitrary,
  HOSTS,
  STORES,
  withoutFaults,
} from './support/combination.js';
import { Figures } from './support/figures.js';
import { runCombination } from './support/runCombination.js';
import { Hang, startSimulatedTime, stopSimulatedTime } from './support/simulatedTime.js';
import { usePostgres } from './support/stores.js';

const NUM_RUNS = Number(process.env.COMBINATION_RUNS ?? 1000);
// COMBINATION_SEED=<seed> (and COMBINATION_PATH=<path>) printed by a failure replay that run
const { COMBINATION_SEED, COMBINATION_PATH } = process.env;
const SEED = {
  ...(COMBINATION_SEED === undefined ? {} : { seed: Number(COMBINATION_SEED) }),
  ...(COMBINATION_PATH === undefined ? {} : { path: COMBINATION_PATH }),
};
// what the generator reaches is checked over a full run, not a replay of one failure
// COMBINATION_SURVEY=1 logs every broken run instead of stopping at the first (for triage)
const SURVEY = process.env.COMBINATION_SURVEY === '1';
const FULL = NUM_RUNS >= 1000 && COMBINATION_PATH === undefined;
/**
 * The property's own wall-clock guard: generous, since simulated time makes the verdict the same
 * at any load and only how long it takes changes (about 60–80 s at load average 24; 600 s for the
 * first property with two CPU hogs beside it as well, under `nice -n 10`).
 */
const PROPERTY_GUARD_MS = 1_800_000;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
// the postgres host shares one schema (each run has its own runId); without a server it runs on memory
const reachable = await postgresReachable();
const schema = schemaName('combinations');
let pg: PostgresCheckpointStore | undefined;
beforeAll(async () => {
  if (!reachable) return;
  pg = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
  await pg.setup();
  usePostgres(pg);
});
// The first run of each host and kind of step loads modules (dynamic imports: real I/O the
// simulated clock does not wait for): one run of each comes first, on real time, unchecked.
beforeAll(async () => {
  const [base] = fc.sample(combinationArbitrary, { numRuns: 1, seed: 24 }) as [Combination];
  for (const host of HOSTS) {
    for (const steps of ['scripted', 'model'] as const) {
      const c: Combination = { ...withoutFaults(base), host, steps, abortAfterMs: null };
      startSimulatedTime();
      try {
        await runCombination({ ...c, crashAtSave: null });
      } finally {
        stopSimulatedTime();
      }
    }
  }
}, 60_000);
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  usePostgres(undefined);
  await pg?.close();
  if (reachable) await dropSchema(schema);
});

/** Runs one combination, counts what it reached and what it broke; throws on anything broken. */
async function check(c: Combination, figures: Figures) {
  const rejectedBefore = unhandled.length;
  let run: Awaited<ReturnType<typeof runCombination>>;
  const began = process.hrtime.bigint();
  try {
    run = await runCombination(c);
    figures.count(`real ms ${c.host}`, Number((process.hrtime.bigint() - began) / 1_000_000n));
  } catch (error) {
    if (error instanceof Hang) figures.zeros.hangs += 1;
    throw error;
  }
  const problems = problemsOf(c, run);
  figures.add(c, run, problems);
  figures.zeros.unhandledRejections += unhandled.length - rejectedBefore;
  const lines = Object.values(problems).flat();
  if (lines.length && SURVEY)
    console.log(`SURVEY ${c.host}: ${lines.join('; ')} ${JSON.stringify(c)}`);
  else if (lines.length) throw new Error(lines.join('; '));
  if (unhandled.length > rejectedBefore)
    throw new Error(`unhandled rejection: ${String(unhandled[rejectedBefore])}`);
}

async function property(arbitrary: fc.Arbitrary<Combination>, figures: Figures) {
  startSimulatedTime();
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, (c) => check(c, figures)),
      { numRuns: NUM_RUNS, ...SEED },
    );
  } finally {
    stopSimulatedTime();
  }
  console.log(figures.line(reachable));
  expect(figures.zeros).toEqual({
    hangs: 0,
    boundViolations: 0,
    duplicatedEffects: 0,
    unhandledRejections: 0,
    changedRefusedRows: 0,
  });
  expect(figures.runs).toBe(NUM_RUNS);
}

describe('features combined, faults on', () => {
  const both: Figures[] = [];
  it(
    `every generated run settles in time, keeps SPEC §3's bounds, never repeats an effect and leaves refused rows as they were (${NUM_RUNS} runs)`,
    async () => {
      const figures = new Figures('combinations');
      both.push(figures);
      await property(combinationArbitrary, figures);
      // the generator reaches what it claims to: crashes, refusals, deadline stops, every host, every fault
      if (FULL) {
        expect(figures.crashes).toBeGreaterThan(20);
        expect(figures.refusals).toBeGreaterThan(20);
        expect(figures.deadlineStops).toBeGreaterThan(20);
        for (const host of HOSTS) expect(figures.has(`host ${host}`)).toBeGreaterThan(20);
        figures.expectFaultsReached(NUM_RUNS / 100);
        // maxCost's reservation with costEstimates, and refusals by it, are among the generated runs
        expect(figures.has('cost reserved')).toBeGreaterThan(NUM_RUNS / 10);
        expect(figures.has('refused by budget (estimates)')).toBeGreaterThan(NUM_RUNS / 100);
      }
    },
    PROPERTY_GUARD_MS,
  );

  it(
    `a process killed at a random save and resumed from its store never runs a non-idempotent step twice (${NUM_RUNS} runs)`,
    async () => {
      const killed = combinationArbitrary.chain((c) =>
        fc
          .record({
            host: fc.constantFrom(...STORES, 'pipeline' as const),
            store: fc.constantFrom(...STORES),
            crashAtSave: fc.integer({ min: 1, max: 8 }),
          })
          .map(({ store, ...where }) => ({ ...c, ...where, pipeline: { ...c.pipeline, store } })),
      );
      const figures = new Figures('killed and resumed');
      both.push(figures);
      await property(killed, figures);
      if (FULL) {
        expect(figures.crashes).toBeGreaterThan(NUM_RUNS / 3);
        expect(figures.has('pipeline crashes')).toBeGreaterThan(NUM_RUNS / 20);
      }
    },
    PROPERTY_GUARD_MS,
  );

  it('reached, across both, every outcome of model steps and every kind of cross-check', () => {
    if (!FULL) return;
    const reached = (what: string) => both.reduce((sum, figures) => sum + figures.has(what), 0);
    for (const status of ['budget_stop', 'retry_exhausted', 'terminate_with_partial', 'proceed'])
      expect(reached(`model ${status}`), status).toBeGreaterThan(0);
    for (const checked of ['valid', 'invalid', 'throw', 'hang'])
      expect(reached(`cross-check ${checked}`), checked).toBeGreaterThan(0);
    expect(reached('pipeline reruns')).toBeGreaterThan(0);
  });

  it('no rejection went unhandled, late ones included', async () => {
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
  });
});
