/**
 * One worker process of test/workers-processes.test.ts: a `createWorker` on a Postgres store,
 * driving two loops whose attempt has a real side effect (a row in `effects`, unique per run and
 * attempt). It journals every settled run with a synchronous append, so the journal survives a
 * SIGKILL, and stops cleanly on SIGTERM. The library is loaded from LIB (compiled by the test).
 * Env: LIB, PG_URL, SCHEMA, WORKER_ID, LEASE_MS, CONCURRENCY, JOURNAL.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, PG_URL, SCHEMA, WORKER_ID, LEASE_MS, CONCURRENCY, JOURNAL } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { createWorker } = await load('index.js');
const { PostgresCheckpointStore } = await load('postgres/index.js');

const store = new PostgresCheckpointStore({
  connectionString: PG_URL,
  schema: SCHEMA,
  maxConnections: 4,
});
const journal = (entry) =>
  appendFileSync(JOURNAL, `${JSON.stringify({ worker: WORKER_ID, at: Date.now(), ...entry })}\n`);
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** The side effect: one row per (run, attempt); a second one lands in `duplicates`. */
async function recordAttempt(runId, attempt) {
  const { rowCount } = await store.pool.query(
    `INSERT INTO "${SCHEMA}".effects (run_id, step, attempt, worker)
     VALUES ($1, 'attempt', $2, $3) ON CONFLICT DO NOTHING`,
    [runId, attempt, WORKER_ID],
  );
  if (rowCount === 0) {
    await store.pool.query(
      `INSERT INTO "${SCHEMA}".duplicates (run_id, step, attempt, worker) VALUES ($1, 'attempt', $2, $3)`,
      [runId, attempt, WORKER_ID],
    );
  }
}

/** Run `run-n` is accepted at attempt `refines + 1`; attempts take 20–60 ms. */
const draft = {
  maxRetries: 3,
  idempotent: { validate: true, refine: true },
  attempt: async ({ input, attempt, signal }) => {
    await recordAttempt(`run-${input.n}`, attempt);
    await sleep(20 + ((input.n * 7 + attempt * 13) % 41), signal);
    return { n: input.n, version: attempt };
  },
  validate: (candidate) =>
    candidate.version > candidate.n % 3
      ? { valid: true }
      : {
          valid: false,
          error: { severity: 'correctable', message: `v${candidate.version} short` },
        },
};

const worker = createWorker({
  store,
  loops: { draft, reviewed: { ...draft, review: { beforeProceed: true } } },
  concurrency: Number(CONCURRENCY),
  leaseMs: Number(LEASE_MS),
  pollMs: 50,
  workerId: WORKER_ID,
  onSettled: (result, run) =>
    journal({
      type: 'settled',
      runId: run.runId,
      status: result.status,
      claims: run.claims,
    }),
  onError: (error, run) =>
    journal({ type: 'error', runId: run?.runId, code: error?.code, message: String(error) }),
});

process.on('SIGTERM', async () => {
  await worker.stop();
  await store.close();
  journal({ type: 'stopped' });
  process.exit(0);
});
journal({ type: 'started', pid: process.pid });
process.stdout.write('ready\n');
