/**
 * The combination suite over the operations of issue 34, with crashes: a generated loop's writer
 * dies (a step in flight, idempotent or not, a retry wait, a pause; simulated in one process by
 * abandoning it and keeping the row it left) on the memory store or SQLite, and the run is then
 * recovered by the same writer identity at once (alone, or by two recoverers racing) or by another
 * after the claim expired, parked and
 * reconciled ("it happened" / "it did not happen"), or recovered and then continued or forked.
 * Every run settles; no non-idempotent step acts twice (bar the one a person said did not
 * happen, exactly twice); a second recovery finds nothing; branches keep their new caps, run no
 * recorded step and leave the original row byte-identical.
 */
import fc from 'fast-check';
import {
  type CheckpointStore,
  continueRun,
  forkRun,
  isCheckpointError,
  isLoopConfigError,
  type LoopConfig,
  type LoopOutcome,
  MemoryCheckpointStore,
  reconcileRun,
  recoverRuns,
  topUpConfig,
} from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import {
  type Call,
  CLAIM_TTL_MS,
  type Crash,
  crashArb,
  crashedWriter,
  happened,
  loopOf,
  type Shape,
  settle,
  shapeArb,
} from './support/crashedWriter.js';
import { drive, startSimulatedTime, stopSimulatedTime } from './support/simulatedTime.js';

type Operation = 'same' | 'other' | 'park-happened' | 'park-not' | 'continue' | 'fork';
const OPERATIONS: Operation[] = ['same', 'other', 'park-happened', 'park-not', 'continue', 'fork'];
const { COMBINATION_SEED, COMBINATION_RUNS } = process.env;

const dataOf = async (store: CheckpointStore, runId: string) =>
  JSON.parse((await store.load(runId))?.data ?? 'null');

const count = (calls: Call[], key: string) => calls.filter((c) => c.key === key).length;

type Kind = 'memory' | 'sqlite' | 'postgres';
const figures = {
  runs: 0,
  memory: 0,
  sqlite: 0,
  postgres: 0,
  crashed: 0,
  resumed: 0,
  parked: 0,
  waitedOut: 0,
  branched: 0,
  raced: 0,
  lostRaces: 0,
};

const diedAt = { attempt: 0, validate: 0, refine: 0, wait: 0, pause: 0 };

// Postgres shares one schema of its own (each run has its own runId), dropped after; without a
// server its runs go to the memory store
const reachable = await postgresReachable();
const schema = schemaName('operate');
let pg: PostgresCheckpointStore | undefined;

async function scenario(
  shape: Shape,
  crash: Crash,
  kind: Kind,
  op: Operation,
  topUp: { retries: number; attempts: number },
  forkRetries: number,
  racing: boolean,
) {
  // a writer can die at a pause only where one is asked for
  if (crash.at === 'pause') shape = { ...shape, review: true };
  figures.runs += 1;
  figures[kind] += 1;
  const id = `run${figures.runs}`;
  const calls: Call[] = [];
  const target =
    kind === 'postgres'
      ? pg
      : kind === 'sqlite'
        ? new SqliteCheckpointStore(':memory:')
        : undefined;
  const { store, row, hit, crashed } = await crashedWriter(
    shape,
    crash,
    target ?? new MemoryCheckpointStore(),
    id,
    calls,
  );
  if (crashed) figures.crashed += 1;
  if (hit || (crash.at === 'pause' && row.status === 'paused')) diedAt[crash.at] += 1;
  const inFlight = crash.at !== 'wait' && hit ? calls.at(-1) : undefined;
  const config = loopOf(shape, calls);
  const loops = { loops: { op: config } };
  const parks = op === 'park-happened' || op === 'park-not';
  const owner = op === 'other' ? 'pod-b' : 'pod-a';
  const recovering = () =>
    recoverRuns(store, loops, {
      claimOwner: owner,
      claimTtlMs: CLAIM_TTL_MS,
      inFlight: parks ? 'park' : 'end',
    });
  const recover = () => drive(recovering()).then((r) => r.value);

  if (op === 'other' && row.status === 'running') {
    const early = await recover();
    expect(early.stillClaimed.map((e) => e.runId)).toEqual([id]);
    expect((await store.load(id))?.data).toBe(row.data);
    vi.setSystemTime(Date.now() + CLAIM_TTL_MS + 1);
    figures.waitedOut += 1;
  }
  // racing: two recoverers under one identity (replicas of one pod name) at the same moment
  const reports = (await drive(Promise.all(racing ? [recovering(), recovering()] : [recovering()])))
    .value;
  if (racing) figures.raced += 1;
  // the rival that came second: refused conflict by the store (as stillClaimed), or found it done
  figures.lostRaces += reports.flatMap((r) => r.stillClaimed).length;
  const report = {
    resumed: reports.flatMap((r) => r.resumed),
    parked: reports.flatMap((r) => r.parked),
    refused: reports.flatMap((r) => r.refused),
  };
  expect(report.refused).toEqual([]);
  const handled = [...report.resumed, ...report.parked].map((e) => e.runId);
  expect(handled).toEqual(row.status === 'running' ? [id] : []);
  if (row.status !== 'running') expect((await store.load(id))?.data).toBe(row.data);
  figures.resumed += report.resumed.length;
  // a run is parked exactly when its non-idempotent step was in flight, and only if asked
  const shouldPark = parks && inFlight !== undefined && !inFlight.idempotent;
  expect(report.parked.map((e) => e.step)).toEqual(shouldPark ? [inFlight.step] : []);
  if (!parks && inFlight && !inFlight.idempotent) {
    expect(report.resumed.map((e) => e.status)).toEqual(['unknown_outcome']);
  }
  let reconciled: 'happened' | 'not' | undefined;
  if (shouldPark) {
    figures.parked += 1;
    reconciled = op === 'park-happened' ? 'happened' : 'not';
    const answer =
      reconciled === 'happened'
        ? { type: 'outcome.happened' as const, result: happened[inFlight.step] }
        : { type: 'outcome.did_not_happen' as const };
    const done = await drive(reconcileRun(config, { store, runId: id, answer }));
    await settle(config, store, id, done.value);
  } else {
    await settle(config, store, id);
  }
  // handled exactly once: nothing is left for a second recovery
  const again = await recover();
  expect([...again.resumed, ...again.parked, ...again.stillClaimed]).toEqual([]);
  const final = await store.load(id);
  expect(['running', 'paused']).not.toContain(final?.status);

  // no non-idempotent step acts twice; an idempotent one at most once more, after the crash
  for (const call of calls) {
    const times = count(calls, call.key);
    if (call.key === inFlight?.key && reconciled === 'not') expect(times).toBe(2);
    else expect(times).toBeLessThanOrEqual(call.idempotent ? 2 : 1);
  }
  if (inFlight && reconciled === 'happened') expect(count(calls, inFlight.key)).toBe(1);

  if (op === 'continue' || op === 'fork')
    await branch(id, op, shape, config, store, calls, topUp, forkRetries);
}

/** Continues or forks the settled run: caps, new steps only, the original row byte-identical. */
async function branch(
  id: string,
  op: 'continue' | 'fork',
  shape: Shape,
  config: LoopConfig<string, string>,
  store: CheckpointStore,
  calls: Call[],
  topUp: { retries: number; attempts: number },
  forkRetries: number,
) {
  const original = await store.load(id);
  const context = (await dataOf(store, id)).snapshot.context;
  const spent = { retries: context.retryCount, attempts: context.attempts, cost: context.cost };
  const seen = calls.length;
  const next =
    op === 'continue'
      ? topUpConfig(config, spent, topUp)
      : loopOf({ ...shape, maxRetries: forkRetries }, calls);
  const started =
    op === 'continue'
      ? continueRun(config, { store, runId: id, newRunId: `${id}b`, topUp })
      : forkRun(next, { store, runId: id, newRunId: `${id}b` });
  const result = await drive(started).then(
    (r) => r.value,
    (error: unknown) => {
      expect(isCheckpointError(error) || isLoopConfigError(error)).toBe(true);
      return undefined;
    },
  );
  expect(await store.load(id)).toStrictEqual(original);
  if (!result) {
    expect(calls.length).toBe(seen);
    return;
  }
  figures.branched += 1;
  const outcome = ((await settle(next, store, `${id}b`, result)) ?? result) as LoopOutcome;
  const maxRetries = op === 'continue' ? spent.retries + topUp.retries : forkRetries;
  const maxAttempts = op === 'continue' ? spent.attempts + topUp.attempts : 2 * (forkRetries + 1);
  expect(outcome.iterations).toBeLessThanOrEqual(maxRetries);
  expect(outcome.attempts).toBeLessThanOrEqual(maxAttempts);
  for (const call of calls.slice(seen)) {
    if (call.step === 'attempt') expect(call.attempt).toBeGreaterThan(spent.attempts);
    if (call.step === 'refine') expect(call.iteration).toBeGreaterThan(spent.retries);
  }
  expect(calls.slice(seen).filter((c) => c.step === 'attempt').length).toBe(
    outcome.attempts - spent.attempts,
  );
  expect(await store.load(id)).toStrictEqual(original);
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

describe('operating crashed runs, combined', () => {
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    if (reachable) {
      pg = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
      await pg.setup();
    }
    startSimulatedTime();
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    stopSimulatedTime();
    await pg?.close();
    if (reachable) await dropSchema(schema);
  });

  it('recover, park and reconcile, continue and fork: every run settles once, no effect twice, caps kept, originals untouched', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArb,
        crashArb,
        fc.constantFrom<Kind>('memory', 'sqlite', 'postgres'),
        fc.constantFrom(...OPERATIONS),
        fc.record({
          retries: fc.integer({ min: 1, max: 2 }),
          attempts: fc.integer({ min: 1, max: 3 }),
        }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        scenario,
      ),
      {
        numRuns: Number(COMBINATION_RUNS ?? 400),
        ...(COMBINATION_SEED === undefined ? {} : { seed: Number(COMBINATION_SEED) }),
      },
    );
    console.log('operate combinations', { postgresReachable: reachable, ...figures, diedAt });
    expect(unhandled).toEqual([]);
    // the property reached each kind of case often enough to mean something
    expect(figures.crashed).toBeGreaterThan(figures.runs / 2);
    expect(figures.parked).toBeGreaterThan(10);
    expect(figures.waitedOut).toBeGreaterThan(10);
    expect(figures.branched).toBeGreaterThan(10);
    expect(figures.lostRaces).toBeGreaterThan(10);
    for (const point of Object.values(diedAt)) expect(point).toBeGreaterThan(5);
    // a generous guard: time is simulated, so only how long the 400 runs take changes with load
    // (about 20 s on a quiet machine, over 120 s beside a CPU hog)
  }, 600_000);
});
