/**
 * Three worker processes (test/workers/workerChild.mjs) share 200 queued runs on the real Postgres
 * server; one is SIGKILLed mid-run. Every run must end exactly once with the outcome its frozen
 * checkpoint calls for, no attempt's side effect may be recorded twice, and the killed worker's
 * runs must be finished by the others once its leases expire.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCheckpointError, type LoopOutcome } from 'loopchart';
import { decodeCheckpoint } from 'loopchart/persistence';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary } from './support/compileLibrary.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './workers/postgresServer.js';

const reachable = await postgresReachable();
const RUNS = 200;
const LEASE_MS = 2000;
const CONCURRENCY = 4;
const schema = schemaName('procs');
const children: ChildProcess[] = [];
let base = '';
let lib = '';
let store: PostgresCheckpointStore;

interface Entry {
  type: 'started' | 'settled' | 'error' | 'stopped';
  worker: string;
  at: number;
  runId?: string;
  status?: string;
  message?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const journalOf = (worker: string) => join(base, `${worker}.jsonl`);
const readJournal = (worker: string): Entry[] =>
  existsSync(journalOf(worker))
    ? readFileSync(journalOf(worker), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Entry)
    : [];

async function spawnWorker(worker: string) {
  const env = {
    ...process.env,
    LIB: lib,
    PG_URL,
    SCHEMA: schema,
    WORKER_ID: worker,
    LEASE_MS: String(LEASE_MS),
    CONCURRENCY: String(CONCURRENCY),
    JOURNAL: journalOf(worker),
  };
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./workers/workerChild.mjs', import.meta.url))],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let err = '';
  child.stderr?.on('data', (chunk) => (err += chunk));
  const [chunk] = await Promise.race([
    once(child.stdout as NodeJS.ReadableStream, 'data'),
    once(child, 'exit').then(() => {
      throw new Error(`worker ${worker} exited before it was ready: ${err}`);
    }),
  ]);
  expect(String(chunk)).toContain('ready');
  return { child, errors: () => err };
}

/** Answers every paused review; a second answer to one pause is refused, and ignored here. */
async function answerReviews() {
  for (const run of await store.list({ status: 'paused' })) {
    await store.send(run.runId, { type: 'review.continue' }).catch((error: unknown) => {
      if (!(isCheckpointError(error) && error.code === 'not_waiting')) throw error;
    });
  }
}

async function waitUntil(done: () => Promise<boolean>, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await answerReviews();
    await sleep(50);
  }
}

describe.skipIf(!reachable)('workers in separate processes on Postgres', () => {
  beforeAll(async () => {
    ({ base, lib } = compileLibrary('workers', ['index.ts', 'postgres/index.ts']));
    store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
    await store.setup();
    const columns = 'run_id text, step text, attempt integer, worker text';
    await store.pool.query(`CREATE TABLE "${schema}".effects (${columns},
      PRIMARY KEY (run_id, step, attempt))`);
    await store.pool.query(`CREATE TABLE "${schema}".duplicates (${columns})`);
  }, 90_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await store?.close();
    if (reachable) await dropSchema(schema);
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('share 200 runs; a SIGKILLed worker’s runs are finished by the others after its lease expires', async () => {
    const runIds = Array.from({ length: RUNS }, (_, n) => `run-${n}`);
    await store.enqueueAll(
      runIds.map((runId, n) => ({
        runId,
        loop: n % 10 === 0 ? 'reviewed' : 'draft',
        input: { n },
      })),
    );
    const [victim, ...survivors] = await Promise.all(['w1', 'w2', 'w3'].map(spawnWorker));
    if (!victim) throw new Error('no workers');

    await waitUntil(async () => (await store.counts()).done >= RUNS / 4, 'a quarter done', 30_000);
    const exited = once(victim.child, 'exit');
    victim.child.kill('SIGKILL');
    expect((await exited)[1]).toBe('SIGKILL');
    const killedAt = Date.now();
    await sleep(250); // a save the victim sent just before dying may still commit
    const { rows: orphans } = await store.pool.query<{
      run_id: string;
      state: string | null;
      expires: number;
    }>(
      `SELECT q.run_id, c.state, (extract(epoch FROM q.ready_at) * 1000)::float8 AS expires
       FROM "${schema}".loopchart_queue q LEFT JOIN "${schema}".loopchart_checkpoints c USING (run_id)
       WHERE q.state = 'leased' AND q.lease_owner = 'w1' AND q.ready_at > clock_timestamp()`,
    );
    expect(orphans.length).toBeGreaterThan(0); // killed mid-run: it held runs

    await waitUntil(async () => (await store.counts()).done === RUNS, 'all runs done', 60_000);
    for (const { child } of survivors) {
      const stopped = once(child, 'exit');
      child.kill('SIGTERM');
      expect((await stopped)[0]).toBe(0);
    }

    // Every run ended, once, with the outcome its checkpoint at the kill calls for.
    const inFlightAttempt = new Set(
      orphans.filter((o) => o.state === 'attempting').map((o) => o.run_id),
    );
    for (const [n, runId] of runIds.entries()) {
      const record = await store.load(runId);
      const outcome = decodeCheckpoint(record as never).snapshot.output as LoopOutcome<unknown>;
      expect(record?.status).toBe('done');
      if (inFlightAttempt.has(runId)) {
        expect(outcome).toMatchObject({
          status: 'unknown_outcome',
          error: { cause: { step: 'attempt' } },
        });
      } else {
        expect(outcome, runId).toMatchObject({
          status: 'proceed',
          candidate: { n, version: (n % 3) + 1 },
          iterations: n % 3,
        });
      }
      expect((await store.entry(runId))?.outcome).toBe(outcome.status);
    }

    // No attempt's side effect twice: the unique key never fired, and each proceed run has
    // exactly attempts 1..k.
    const { rows: duplicates } = await store.pool.query(`SELECT * FROM "${schema}".duplicates`);
    expect(duplicates).toEqual([]);
    const { rows: effects } = await store.pool.query<{ run_id: string; attempts: number[] }>(
      `SELECT run_id, array_agg(attempt ORDER BY attempt) AS attempts FROM "${schema}".effects GROUP BY run_id`,
    );
    const attemptsOf = new Map(effects.map((row) => [row.run_id, row.attempts]));
    for (const [n, runId] of runIds.entries()) {
      if (inFlightAttempt.has(runId)) continue;
      expect(attemptsOf.get(runId), runId).toEqual(
        Array.from({ length: (n % 3) + 1 }, (_, i) => i + 1),
      );
    }

    // Each run settled in at most one worker; only a run the victim finished may lack a report.
    const journals = ['w1', 'w2', 'w3'].map(readJournal);
    const settled = journals.flat().filter((e) => e.type === 'settled' && e.status !== 'paused');
    const reports = new Map<string, Entry[]>();
    for (const entry of settled)
      reports.set(entry.runId ?? '', [...(reports.get(entry.runId ?? '') ?? []), entry]);
    for (const runId of runIds) {
      const count = reports.get(runId)?.length ?? 0;
      expect(count, runId).toBeLessThanOrEqual(1);
      // The victim may have died between a run's final save and its report.
      if ((await store.entry(runId))?.owner !== 'w1') expect(count, runId).toBe(1);
    }
    expect(journals[0]?.some((e) => e.type === 'settled')).toBe(true);

    // The victim's runs were taken over by the survivors, only after its leases ran out.
    for (const orphan of orphans) {
      const entry = await store.entry(orphan.run_id);
      expect(entry?.owner).toMatch(/^w[23]$/);
      // A reviewed run's claims restart at its pause; a draft run was claimed twice or more.
      if (Number(orphan.run_id.slice(4)) % 10 !== 0)
        expect(entry?.claims).toBeGreaterThanOrEqual(2);
      const report = reports.get(orphan.run_id)?.[0];
      expect(report?.worker).toMatch(/^w[23]$/);
      expect(report?.at).toBeGreaterThanOrEqual(orphan.expires - 50);
      expect(orphan.expires).toBeGreaterThan(killedAt);
    }
    const errors = journals
      .slice(1)
      .flat()
      .filter((e) => e.type === 'error');
    expect(errors).toEqual([]);
  }, 120_000);
});
