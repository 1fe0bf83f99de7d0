/**
 * Runs per second with 1, 2 and 4 worker processes sharing one queue on the real Postgres server
 * (LOOPCHART_PG_URL, default the local one). Each worker is this module run as a child process
 * (LOOPCHART_BENCH_WORKER=1) with `createWorker` on a `PostgresCheckpointStore`; the parent queues
 * the runs, says go, and times until the last one is done.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createWorker, type LoopConfig } from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import {
  attempt,
  type Draft,
  ITERATIONS_PER_LOOP,
  MAX_RETRIES,
  REFINES_TO_VALID,
  refine,
  type Task,
  taskFor,
  validate,
} from '../loops/workload.js';

const PG_URL = process.env.LOOPCHART_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.LOOPCHART_BENCH_SCHEMA ?? `loopchart_bench_${process.pid}`;
const CONCURRENCY = 8;
const STEPS_PER_RUN = 2 * ITERATIONS_PER_LOOP + REFINES_TO_VALID;

/** The loops workload; `waitMs` > 0 makes each attempt wait, like a fast model call. */
const loopOf = (waitMs: number): LoopConfig<Task, Draft> => ({
  maxRetries: MAX_RETRIES,
  idempotent: { validate: true, refine: true },
  attempt: async ({ input }) => {
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    return attempt(input);
  },
  validate: (candidate) => validate(candidate),
  refine: ({ input, error }) => refine(input, error.message),
});

const openStore = (synchronousCommit: 'on' | 'off') =>
  new PostgresCheckpointStore({
    connectionString: PG_URL,
    schema: SCHEMA,
    synchronousCommit,
    maxConnections: CONCURRENCY + 2,
  });

/** Child mode: one worker; it starts on a line on stdin and stops on SIGTERM. */
async function workerMain() {
  const env = process.env;
  const store = openStore(env.SYNC === 'off' ? 'off' : 'on');
  await store.pool.query('SELECT 1'); // connected before the clock starts
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  const worker = createWorker({
    store,
    loops: { memo: loopOf(Number(env.WAIT_MS)) },
    concurrency: CONCURRENCY,
    pollMs: 10,
    onError: (error) => console.error(`bench worker: ${String(error)}`),
  });
  process.once('SIGTERM', async () => {
    await worker.stop();
    await store.close();
    process.exit(0);
  });
}

async function spawnWorkers(count: number, waitMs: number, sync: 'on' | 'off') {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: {
        ...process.env,
        LOOPCHART_BENCH_WORKER: '1',
        LOOPCHART_BENCH_SCHEMA: SCHEMA,
        WAIT_MS: String(waitMs),
        SYNC: sync,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
  }
  await Promise.all(children.map((child) => once(child.stdout as NodeJS.ReadableStream, 'data')));
  return children;
}

interface Case {
  workers: number;
  waitMs: number;
  sync: 'on' | 'off';
}

async function measure(store: PostgresCheckpointStore, runs: number, c: Case) {
  await store.pool.query(`TRUNCATE "${SCHEMA}".loopchart_queue, "${SCHEMA}".loopchart_checkpoints`);
  await store.enqueueAll(
    Array.from({ length: runs }, (_, n) => ({ loop: 'memo', input: taskFor(n) })),
  );
  const children = await spawnWorkers(c.workers, c.waitMs, c.sync);
  try {
    const started = performance.now();
    for (const child of children) child.stdin?.write('go\n');
    for (;;) {
      const counts = await store.counts();
      if (counts.done + counts.failed === runs) {
        if (counts.failed > 0) throw new Error(`${counts.failed} runs failed`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await store.pool.query(
      `SELECT count(*)::int AS n FROM "${SCHEMA}".loopchart_queue WHERE outcome = 'proceed'`,
    );
    if (rows[0]?.n !== runs) throw new Error(`only ${rows[0]?.n} of ${runs} runs proceeded`);
    return seconds;
  } finally {
    await Promise.all(
      children.map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
  }
}

export const section: BenchSection = {
  name: 'workers',
  title: `Workers on Postgres: the loops workload (${STEPS_PER_RUN} steps, a checkpoint after each) queued and driven by 1, 2 and 4 worker processes (concurrency ${CONCURRENCY} each)`,
  async run(ctx: BenchContext) {
    const store = openStore('on');
    try {
      await store.setup();
    } catch (error) {
      await store.close();
      throw new Error(`no Postgres server at ${PG_URL} (set LOOPCHART_PG_URL): ${String(error)}`);
    }
    const runs = ctx.quick ? 80 : 300;
    const cases: Case[] = [];
    for (const [waitMs, sync] of [
      [0, 'on'],
      [0, 'off'],
      [50, 'on'],
    ] as const) {
      for (const workers of [1, 2, 4]) cases.push({ workers, waitMs, sync });
    }
    try {
      const rows = [];
      for (const c of cases) {
        const seconds = await measure(store, runs, c);
        const perSecond = runs / seconds;
        ctx.log(
          `${c.workers} worker(s), wait ${c.waitMs} ms, sync ${c.sync}: ${perSecond.toFixed(1)} runs/s`,
        );
        rows.push({
          'attempt waits': `${c.waitMs} ms`,
          synchronous_commit: c.sync,
          workers: c.workers,
          runs,
          s: Number(seconds.toFixed(2)),
          'runs/s': Number(perSecond.toFixed(1)),
          'saves/s': Math.round(perSecond * (STEPS_PER_RUN + 1)),
        });
      }
      const server = (await store.pool.query('SHOW server_version')).rows[0]?.server_version;
      return { rows, server: `PostgreSQL ${server}`, 'saves per run': STEPS_PER_RUN + 1 };
    } finally {
      await store.pool.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
      await store.close();
    }
  },
};

if (
  process.env.LOOPCHART_BENCH_WORKER === '1' &&
  process.argv[1] === fileURLToPath(import.meta.url)
) {
  await workerMain();
}
