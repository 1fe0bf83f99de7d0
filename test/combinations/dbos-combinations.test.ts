/**
 * The combination suite's promises on DBOS: generated loops (the same feature space as
 * combinations.test.ts: review and clarification pauses, fallback, maxCost, stall modes,
 * transient and uncertain failures, hung steps under timeouts and deadlines, cancels, scripted
 * or model steps) each registered as a DBOS workflow in this process, on the real Postgres server
 * (a database of its own, dropped after), started, answered from outside and cancelled through
 * DBOS. Each must end once with a SPEC §3 status, keep its bounds, report its cost and decisions
 * truly and never run a non-idempotent step twice; its workflow must end SUCCESS (CANCELLED only
 * when cancelled). DBOS takes its workflows before launch, so the combinations are drawn first:
 * DBOS_COMBINATION_RUNS of them (default 60) from COMBINATION_SEED (default: a fresh seed, printed
 * with any failure). Crashes across processes are test/dbos-*.test.ts's.
 */
import fc from 'fast-check';
import { type DbosLoop, registerLoop } from 'loopchart/dbos';
import { describe, expect, it } from 'vitest';
import { dbosInProcess } from '../dbos/dbosInProcess.js';
import { eachConcurrently } from '../support/eachConcurrently.js';
import { postgresReachable } from '../support/postgresServer.js';
import { brokenPromises } from './support/brokenPromises.js';
import { type Combination, combinationArbitrary, withoutFaults } from './support/combination.js';
import { combinationConfig } from './support/combinationConfig.js';
import { type Ledger, newLedger } from './support/ledger.js';
import { onDbos } from './support/onDbos.js';

const RUNS = Number(process.env.DBOS_COMBINATION_RUNS ?? 60);
const SEED = Number(process.env.COMBINATION_SEED ?? Math.floor(Math.random() * 2 ** 31));
// DBOS_COMBINATION_ONLY=<n> runs only combination n of the seed (and prints its outcome)
const ONLY =
  process.env.DBOS_COMBINATION_ONLY === undefined
    ? undefined
    : Number(process.env.DBOS_COMBINATION_ONLY);
const reachable = await postgresReachable();
/** How many of the generated workflows run at once. */
const IN_FLIGHT = 4;

interface Registered {
  c: Combination;
  ledger: Ledger;
  loop: DbosLoop<unknown, unknown>;
}

// on DBOS: no host of the main suite, no simulated crash (a DBOS crash is a killed process), none
// of the main suite's faults (they need its simulated time)
const onDbosArbitrary = combinationArbitrary.map(
  (c): Combination => ({ ...withoutFaults(c), host: 'plain', crashAtSave: null }),
);
const registered: Registered[] = reachable
  ? fc.sample(onDbosArbitrary, { numRuns: RUNS, seed: SEED }).map((c, i) => {
      const ledger = newLedger();
      const loop = registerLoop(combinationConfig(c, ledger), { name: `combination-${i}` });
      return { c, ledger, loop };
    })
  : [];

dbosInProcess('combinations', reachable);

describe.runIf(reachable || process.env.CI)('features combined, on DBOS', () => {
  it(`every generated run keeps its promises as a DBOS workflow (${RUNS} runs, ${IN_FLIGHT} at a time, seed ${SEED})`, async () => {
    expect(reachable, 'the Postgres server at LOOPCHART_PG_URL answers').toBe(true);
    const statuses = new Map<string, number>();
    let pauses = 0;
    let cancels = 0;
    const check = async ({ c, ledger, loop }: Registered, i: number) => {
      const run = await onDbos(c, loop, ledger);
      if (ONLY !== undefined) console.log(JSON.stringify(run.outcome, null, 1).slice(0, 3000));
      const problems = brokenPromises(c, run, { timed: false, watched: false });
      if (problems.length) {
        throw new Error(
          `combination ${i} of seed ${SEED} (COMBINATION_SEED=${SEED} replays it): ${problems.join('; ')}\n${JSON.stringify(c)}\noutcome: ${JSON.stringify({ ...run.outcome, trace: run.outcome.trace.slice(-4) })}`,
        );
      }
      statuses.set(run.outcome.status, (statuses.get(run.outcome.status) ?? 0) + 1);
      pauses += run.segments - 1 + run.refusals;
      if (c.abortAfterMs !== null || run.outcome.status === 'aborted') cancels += 1;
    };
    // a few workflows at a time, as a DBOS app runs them: each waits mostly on Postgres and on
    // its own timers, so the sample takes a fraction of the time it takes one by one
    const chosen = registered.flatMap((r, i) =>
      ONLY === undefined || i === ONLY ? [[r, i] as const] : [],
    );
    await eachConcurrently(chosen, IN_FLIGHT, ([r, i]) => check(r, i));
    console.log(
      `on DBOS: ${RUNS} runs, ${pauses} pauses answered, ${cancels} cancelled or aborted; ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    );
    // the sample reaches what it claims to: more than one way to end, and pauses
    if (RUNS >= 60 && ONLY === undefined) {
      expect(statuses.size).toBeGreaterThan(3);
      expect(pauses).toBeGreaterThan(0);
    }
  }, 600_000);
});
