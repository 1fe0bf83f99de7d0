/**
 * The combination suite: loopchart's promises where features meet. fast-check generates loops
 * across the feature space (review modes, clarification, fallback, maxCost, both stall modes,
 * transient and uncertain failures, hung steps under step timeouts and deadlineMs, an abort at a
 * random point; scripted steps or an AI SDK model through modelSteps; runLoop alone, the memory,
 * SQLite and Postgres stores with a process that dies at a random save and is resumed, a
 * pipeline of one to four stages with a cross-check, an app actor, an agent's shape decision)
 * and every run must settle within the time its config allows, keep SPEC §3's bounds, end in one
 * terminal status, report its cost and decisions truly, and never run a non-idempotent step
 * twice. Runs: COMBINATION_RUNS (default 1,000) per property; a failure prints fast-check's seed
 * and path to replay it.
 */
import fc from 'fast-check';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import { brokenPromises, marginOf, slackOf } from './support/brokenPromises.js';
import { type Combination, combinationArbitrary, HOSTS, STORES } from './support/combination.js';
import { type CombinationRun, runCombination } from './support/runCombination.js';
import { usePostgres } from './support/stores.js';

const NUM_RUNS = Number(process.env.COMBINATION_RUNS ?? 1000);
// COMBINATION_SEED=<seed> (and COMBINATION_PATH=<path>) printed by a failure replay that run
const { COMBINATION_SEED, COMBINATION_PATH } = process.env;
const SEED = {
  ...(COMBINATION_SEED === undefined ? {} : { seed: Number(COMBINATION_SEED) }),
  ...(COMBINATION_PATH === undefined ? {} : { path: COMBINATION_PATH }),
};
// what the generator reaches is checked over a full run, not a replay of one failure
const FULL = NUM_RUNS >= 1000 && COMBINATION_PATH === undefined;
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
// The first run of each host and kind of step compiles its code paths (up to 90 ms here, against
// budgets of a few ms): one run of each comes first, held to every promise but the time budget.
beforeAll(async () => {
  const [base] = fc.sample(combinationArbitrary, { numRuns: 1, seed: 24 }) as [Combination];
  for (const host of HOSTS) {
    for (const steps of ['scripted', 'model'] as const) {
      const c: Combination = { ...base, host, steps, abortAfterMs: null, crashAtSave: null };
      const problems = brokenPromises(c, await runCombination(c), { timed: false });
      if (problems.length) throw new Error(`warm-up ${host}/${steps}: ${problems.join('; ')}`);
    }
  }
}, 60_000);
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  usePostgres(undefined);
  await pg?.close();
  if (reachable) await dropSchema(schema);
});

/** What the generated runs reached, and how much of the time slack they used. */
class Figures {
  runs = 0;
  crashes = 0;
  refusals = 0;
  deadlineStops = 0;
  counts = new Map<string, number>();
  /** The longest a run waited beyond its budget, in ms, and the run it came from. */
  margin = { ms: Number.NEGATIVE_INFINITY, slack: 0, of: '' };
  margins: number[] = [];
  /** The most a run computed per call into loopchart, in ms. */
  cpuPerCall = 0;
  /** How far past budget + slack the runs that were run again had gone, in ms. */
  stalls: number[] = [];

  add(c: Combination, run: CombinationRun) {
    this.runs += 1;
    this.crashes += run.crashes;
    this.refusals += run.refusals;
    const { outcome } = run;
    if (outcome.status === 'ceiling_stop' && outcome.error.cap === 'deadlineMs')
      this.deadlineStops += 1;
    this.count(`status ${outcome.status}`);
    this.count(`host ${c.host}`);
    this.count(`steps ${c.steps}`);
    if (c.steps === 'model') this.count(`model ${outcome.status}`);
    if (c.host === 'pipeline') this.count(`pipeline ${c.pipeline.shape}/${c.pipeline.store}`);
    if (c.host === 'pipeline' && run.crashes > 0) this.count('pipeline crashes');
    if (c.host === 'pipeline' && run.reruns > 0) this.count('pipeline reruns');
    if (c.host === 'agent') this.count(`agent ${c.agent.shape}/${c.agent.check}`);
    if (c.host === 'pipeline' && c.pipeline.shape === 'layer' && run.ledger.crossChecks.calls > 0)
      this.count(`cross-check ${c.pipeline.crossCheck}`);
    const margin = marginOf(run);
    this.margins.push(margin);
    this.cpuPerCall = Math.max(this.cpuPerCall, Math.round(run.activeMs / run.calls));
    if (margin > this.margin.ms) {
      this.margin = {
        ms: margin,
        slack: slackOf(run),
        of: `${c.host}${c.host === 'pipeline' ? `/${c.pipeline.store}` : ''}, ${run.calls} calls, ${run.elapsedMs} ms for a budget of ${run.budgetMs} ms: ${Math.round(run.activeMs)} ms computing, ${Math.round(run.storeMs)} ms in the store`,
      };
    }
  }

  count(what: string) {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }

  has(what: string) {
    return this.counts.get(what) ?? 0;
  }

  line(label: string) {
    const sorted = [...this.margins].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const counts = [...this.counts].sort(([a], [b]) => a.localeCompare(b));
    return `${label}: ${this.runs} runs, ${this.crashes} crashes resumed, ${this.refusals} bad answers refused, ${this.deadlineStops} deadline stops; waited beyond budget median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${this.margin.ms} ms of ${this.margin.slack} ms slack (${this.margin.of}); ${this.stalls.length} over and run again, by [${this.stalls.join(', ')}] ms; computed at most ${this.cpuPerCall} ms a call; ${counts.map(([k, n]) => `${k} ${n}`).join(', ')}${reachable ? '' : ' (no Postgres server: its runs used memory)'}`;
  }
}

/**
 * A run over its time budget by less than STALL_LIMIT_MS is run once more: a slow path in
 * loopchart repeats with the same combination, a stall of the machine (a GC pause, another
 * process on the two cores) does not. Larger overages fail at once; so do reruns over budget.
 */
const STALL_LIMIT_MS = 500;

async function check(c: Combination, figures: Figures) {
  let run = await runCombination(c);
  figures.add(c, run);
  if (marginOf(run) > slackOf(run) && marginOf(run) - slackOf(run) < STALL_LIMIT_MS) {
    figures.stalls.push(marginOf(run) - slackOf(run));
    run = await runCombination(c);
  }
  const problems = brokenPromises(c, run);
  if (problems.length) throw new Error(problems.join('; '));
  if (unhandled.length) throw new Error(`unhandled rejection: ${String(unhandled[0])}`);
}

describe('features combined', () => {
  const both: Figures[] = [];
  it(`every generated run settles in time, keeps SPEC §3's bounds, and never repeats an effect (${NUM_RUNS} runs)`, async () => {
    const figures = new Figures();
    both.push(figures);
    await fc.assert(
      fc.asyncProperty(combinationArbitrary, (c) => check(c, figures)),
      { numRuns: NUM_RUNS, ...SEED },
    );
    console.log(figures.line('combinations'));
    // a stall is rare: more means a slow path that only hits sometimes (or a machine too loaded to tell)
    expect(figures.stalls.length).toBeLessThanOrEqual(Math.ceil(NUM_RUNS / 50));
    // the generator reaches what it claims to: crashes, refusals, deadline stops, every host
    expect(figures.runs).toBe(NUM_RUNS);
    if (FULL) {
      expect(figures.crashes).toBeGreaterThan(20);
      expect(figures.refusals).toBeGreaterThan(20);
      expect(figures.deadlineStops).toBeGreaterThan(20);
      for (const host of HOSTS) expect(figures.has(`host ${host}`)).toBeGreaterThan(20);
    }
  }, 600_000);

  it(`a process killed at a random save and resumed from its store never runs a non-idempotent step twice (${NUM_RUNS} runs)`, async () => {
    const killed = combinationArbitrary.chain((c) =>
      fc
        .record({
          host: fc.constantFrom(...STORES, 'pipeline' as const),
          store: fc.constantFrom(...STORES),
          crashAtSave: fc.integer({ min: 1, max: 8 }),
        })
        .map(({ store, ...where }) => ({ ...c, ...where, pipeline: { ...c.pipeline, store } })),
    );
    const figures = new Figures();
    both.push(figures);
    await fc.assert(
      fc.asyncProperty(killed, (c) => check(c, figures)),
      { numRuns: NUM_RUNS, ...SEED },
    );
    console.log(figures.line('killed and resumed'));
    expect(figures.stalls.length).toBeLessThanOrEqual(Math.ceil(NUM_RUNS / 50));
    if (FULL) {
      expect(figures.crashes).toBeGreaterThan(NUM_RUNS / 3);
      expect(figures.has('pipeline crashes')).toBeGreaterThan(NUM_RUNS / 20);
    }
  }, 600_000);

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
