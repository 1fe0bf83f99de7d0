/**
 * The combination suite: loopchart's promises where features meet. fast-check generates loops
 * across the feature space (review modes, clarification, fallback, maxCost, both stall modes,
 * transient and uncertain failures, hung steps under deadlineMs, an abort at a random point, the
 * memory and SQLite stores with a process that dies at a random save and is resumed, a pipeline
 * stage, an app actor) and every run must settle, keep SPEC §3's bounds, end in one terminal
 * status, and never run a non-idempotent step twice. Runs: COMBINATION_RUNS (default 1,000) per
 * property; a failure prints fast-check's seed and path to replay it.
 */
import fc from 'fast-check';
import { LOOP_STATUSES, OK_STATUSES } from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import {
  type Combination,
  combinationArbitrary,
  deadlineOf,
  HOSTS,
} from './support/combination.js';
import { type CombinationRun, runCombination, usePostgres } from './support/runCombination.js';

const NUM_RUNS = Number(process.env.COMBINATION_RUNS ?? 1000);
// COMBINATION_SEED=<seed printed by a failure> replays that run of the generator
const SEED =
  process.env.COMBINATION_SEED === undefined ? {} : { seed: Number(process.env.COMBINATION_SEED) };
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
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  usePostgres(undefined);
  await pg?.close();
  if (reachable) await dropSchema(schema);
});

const figures = {
  runs: 0,
  crashes: 0,
  refusals: 0,
  deadlineStops: 0,
  statuses: new Map<string, number>(),
  hosts: new Map<string, number>(),
};

/** SPEC §3's bounds and the ledger's account; one line per broken promise. */
function brokenPromises(c: Combination, run: CombinationRun): string[] {
  const { outcome, ledger } = run;
  const problems: string[] = [];
  if (!(LOOP_STATUSES as readonly string[]).includes(outcome.status))
    problems.push(`status ${outcome.status}`);
  if (outcome.ok !== (OK_STATUSES as readonly string[]).includes(outcome.status))
    problems.push('ok disagrees');
  if (!outcome.ok && outcome.error.kind !== outcome.status) problems.push('error.kind disagrees');
  if (outcome.attempts > run.maxAttempts)
    problems.push(`${outcome.attempts} attempts > maxAttempts`);
  if (ledger.attemptNumbers.size > run.maxAttempts)
    problems.push('more attempt invocations than maxAttempts');
  if (outcome.iterations > run.maxRetries)
    problems.push(`${outcome.iterations} refine cycles > maxRetries`);
  if (ledger.fallbackEffects > 1) problems.push(`fallback ran ${ledger.fallbackEffects} times`);
  for (const [key, count] of ledger.effects) {
    const step = key.split(':')[0] as 'attempt' | 'refine' | 'fallback';
    const idempotent = step === 'fallback' ? false : c.idempotent[step];
    const allowed = idempotent ? 1 + run.crashes : 1;
    if (count > allowed) problems.push(`${key} acted ${count} times (allowed ${allowed})`);
  }
  const decisions = outcome.trace.filter((entry) => entry.decision !== undefined);
  if (decisions.at(-1)?.decision !== outcome.status) {
    problems.push(`the last decision is ${decisions.at(-1)?.decision}, not ${outcome.status}`);
  }
  const stops = decisions.filter(
    (entry) =>
      entry.decision !== 'fallback' &&
      (LOOP_STATUSES as readonly string[]).includes(entry.decision ?? ''),
  );
  if (stops.length > 1) problems.push(`${stops.length} terminal decisions`);
  if (c.host !== 'actor' && c.host !== 'pipeline') {
    // onEvent, across every resume: one outcome event, and (with no crash to replay) one
    // decision event per decision of the trace
    const { outcomes, decisions: decided } = run.events;
    if (outcomes.join() !== outcome.status)
      problems.push(`onEvent saw outcomes [${outcomes.join()}], the run ended ${outcome.status}`);
    if (run.crashes === 0 && decided !== decisions.length)
      problems.push(`onEvent saw ${decided} decisions, the trace has ${decisions.length}`);
  }
  const inTime = deadlineOf(c) * run.segments + 1000;
  if (run.elapsedMs > inTime) problems.push(`took ${run.elapsedMs} ms, more than ${inTime} ms`);
  if (
    outcome.status === 'ceiling_stop' &&
    outcome.error.cap === 'deadlineMs' &&
    outcome.error.inFlight === undefined
  ) {
    problems.push('a deadline stop without the step in flight');
  }
  return problems;
}

describe('features combined', () => {
  it(`every generated run settles in time, keeps SPEC §3's bounds, and never repeats an effect (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(combinationArbitrary, async (c) => {
        const run = await runCombination(c);
        figures.runs += 1;
        figures.crashes += run.crashes;
        figures.refusals += run.refusals;
        if (run.outcome.status === 'ceiling_stop' && run.outcome.error.cap === 'deadlineMs')
          figures.deadlineStops += 1;
        figures.statuses.set(
          run.outcome.status,
          (figures.statuses.get(run.outcome.status) ?? 0) + 1,
        );
        figures.hosts.set(c.host, (figures.hosts.get(c.host) ?? 0) + 1);
        const problems = brokenPromises(c, run);
        if (problems.length) throw new Error(problems.join('; '));
        if (unhandled.length) throw new Error(`unhandled rejection: ${String(unhandled[0])}`);
      }),
      { numRuns: NUM_RUNS, ...SEED },
    );
    // the generator reaches what it claims to: crashes, refusals, deadline stops, every host
    expect(figures.runs).toBe(NUM_RUNS);
    if (NUM_RUNS >= 1000) {
      expect(figures.crashes).toBeGreaterThan(20);
      expect(figures.refusals).toBeGreaterThan(20);
      expect(figures.deadlineStops).toBeGreaterThan(20);
      expect([...figures.hosts.keys()].sort()).toEqual([...HOSTS].sort());
    }
    console.log(
      `combinations: ${figures.runs} runs, ${figures.crashes} crashes resumed, ${figures.refusals} bad answers refused, ${figures.deadlineStops} deadline stops; ${[...figures.statuses].map(([s, n]) => `${s} ${n}`).join(', ')}; hosts: ${[...figures.hosts].map(([h, n]) => `${h} ${n}`).join(', ')}${reachable ? '' : ' (no Postgres server: its runs used memory)'}`,
    );
  }, 600_000);

  it(`a process killed at a random save and resumed from its store never runs a non-idempotent step twice (${NUM_RUNS} runs)`, async () => {
    const killed = combinationArbitrary.chain((c) =>
      fc
        .record({
          host: fc.constantFrom('memory' as const, 'sqlite' as const, 'postgres' as const),
          crashAtSave: fc.integer({ min: 1, max: 8 }),
        })
        .map((where) => ({ ...c, ...where })),
    );
    let crashes = 0;
    await fc.assert(
      fc.asyncProperty(killed, async (c) => {
        const run = await runCombination(c);
        crashes += run.crashes;
        const problems = brokenPromises(c, run);
        if (problems.length) throw new Error(problems.join('; '));
        if (unhandled.length) throw new Error(`unhandled rejection: ${String(unhandled[0])}`);
      }),
      { numRuns: NUM_RUNS, ...SEED },
    );
    if (NUM_RUNS >= 1000) expect(crashes).toBeGreaterThan(NUM_RUNS / 3);
    console.log(
      `killed and resumed: ${NUM_RUNS} runs, ${crashes} processes died mid-run and were resumed`,
    );
  }, 600_000);

  it('no rejection went unhandled, late ones included', async () => {
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
  });
});
