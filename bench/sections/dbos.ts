/**
 * Runs per second of the loops workload on DBOS with 1, 2 and 4 processes sharing one DBOS queue
 * on the real Postgres server (LOOPCHART_PG_URL, default the local one; a database of its own,
 * dropped after), beside the retired scheduler's last figures; and, in one process, a loopchart
 * loop against a bare DBOS workflow that runs the same steps as plain `DBOS.runStep` calls. Each
 * process is this module run as a child (LOOPCHART_BENCH_DBOS=1) that serves the case's queue,
 * registered with `DBOSClient` before the processes launch so each serves it from its first poll;
 * once all are up the parent enqueues the runs. Runs/s is runs served ÷ the time from the first
 * run's dequeue to the last run's end as DBOS records them (`started_at_epoch_ms`, `updated_at`):
 * a finished batch is seen by polling, a fixed cost that is not throughput; the parent's own wall
 * time is shown beside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type { LoopConfig } from 'loopchart';
import { registerLoop } from 'loopchart/dbos';
import pg from 'pg';
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
const CONCURRENCY = 8;
const APP = 'loopchart-bench';
const STEPS_PER_RUN = 2 * ITERATIONS_PER_LOOP + REFINES_TO_VALID;
/** `workers` bench of the retired createWorker/Postgres queue, 50 ms attempts, on this machine. */
const RETIRED: Record<number, number> = { 1: 23, 2: 39, 4: 57 };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const loopOf = (waitMs: number): LoopConfig<Task, Draft> => ({
  maxRetries: MAX_RETRIES,
  idempotent: { validate: true, refine: true },
  attempt: async ({ input }) => {
    if (waitMs > 0) await wait(waitMs);
    return attempt(input);
  },
  validate: (candidate) => validate(candidate),
  refine: ({ input, error }) => refine(input, error.message),
});

/** The same steps as the loop, as a plain DBOS workflow: what DBOS costs without loopchart. */
async function bareRun(task: Task, waitMs: number) {
  let input = task;
  for (let i = 0; i < ITERATIONS_PER_LOOP; i++) {
    const draft = await DBOS.runStep(
      async () => {
        if (waitMs > 0) await wait(waitMs);
        return attempt(input);
      },
      { name: 'attempt' },
    );
    const verdict = await DBOS.runStep(() => validate(draft), { name: 'validate' });
    if (verdict.valid) return draft;
    const message = verdict.error.message;
    input = await DBOS.runStep(() => refine(input, message), { name: 'refine' });
  }
  throw new Error('the bare workflow never got a valid draft');
}

/**
 * Runs a freshly launched process serves before it is measured, `CONCURRENCY` at a time: a serving
 * process runs thousands, and its first few compile the code it runs (several ms of CPU per run
 * more for a loop, whose statechart is more code than a bare workflow's), which would charge each
 * added process its start-up as if it were throughput.
 */
const WARM_UP_RUNS = 3 * CONCURRENCY;

async function warmUp(start: (task: Task) => Promise<{ getResult(): Promise<unknown> }>) {
  for (let batch = 0; batch < WARM_UP_RUNS / CONCURRENCY; batch++) {
    const runs = Array.from({ length: CONCURRENCY }, (_, r) => start(taskFor(r)));
    await Promise.all(runs.map(async (run) => (await run).getResult()));
  }
}

/**
 * Child mode: one DBOS process serving the case's queue from launch, after its warm-up runs;
 * `go` starts its CPU count.
 */
async function childMain() {
  const waitMs = Number(process.env.WAIT_MS);
  const memo = registerLoop(loopOf(waitMs), { name: 'memo' });
  const bare = DBOS.registerWorkflow((task: Task) => bareRun(task, waitMs), { name: 'bare' });
  DBOS.setConfig({
    name: APP,
    systemDatabaseUrl: String(process.env.SYSTEM_DB),
    executorID: String(process.env.EXECUTOR_ID),
    logLevel: 'error',
    listenQueues: [String(process.env.QUEUE)],
  });
  await DBOS.launch();
  await warmUp((task) =>
    process.env.WORKFLOW === 'memo' ? memo.start(task) : DBOS.startWorkflow(bare)(task),
  );
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  const cpuAtGo = process.cpuUsage();
  process.once('SIGTERM', async () => {
    const used = process.cpuUsage(cpuAtGo);
    process.stdout.write(`cpu ${(used.user + used.system) / 1000}\n`);
    await DBOS.shutdown();
    process.exit(0);
  });
}

interface Case {
  workflow: 'memo' | 'bare';
  processes: number;
  waitMs: number;
}

/** What one case measured: the parent's wall time and DBOS's own record of when runs were served. */
interface Measured {
  wallSeconds: number;
  /** From the first run's dequeue to the last run's completion, as DBOS recorded them. */
  servingSeconds: number;
  /** CPU time of the serving processes and of the Postgres server, in ms (null off Linux). */
  processCpuMs: number;
  postgresCpuMs: number | null;
}

/** CPU time (ms) of every `postgres` process on this machine, from /proc; null where unreadable. */
function postgresCpuMs(): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // it ended meanwhile
      }
      // pid (comm) state … utime stime: fields 14 and 15, counted after the closing parenthesis
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times, on every architecture Node runs on. */
const CLOCK_TICKS = 100;

const keyOf = (c: Case) => `${c.workflow}/${c.processes}/${c.waitMs}`;

async function measure(
  db: pg.Client,
  client: DBOSClient,
  systemDb: string,
  runs: number,
  c: Case,
  n: number,
): Promise<Measured> {
  // registered before the processes launch, every one of them serves it from its first poll on
  // (a queue registered later is found up to a second later, one process after another)
  const queueName = `bench_${n}`;
  await client.registerQueue(queueName, {
    workerConcurrency: CONCURRENCY,
    minPollingIntervalMs: 20,
    applicationName: APP,
  });
  const children: ChildProcess[] = [];
  for (let i = 0; i < c.processes; i++) {
    children.push(
      spawn(process.execPath, [fileURLToPath(import.meta.url)], {
        env: {
          ...process.env,
          LOOPCHART_BENCH_DBOS: '1',
          SYSTEM_DB: systemDb,
          EXECUTOR_ID: `bench-${n}-${i}`,
          WAIT_MS: String(c.waitMs),
          QUEUE: queueName,
          WORKFLOW: c.workflow,
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
  }
  try {
    await Promise.all(children.map((child) => once(child.stdout as NodeJS.ReadableStream, 'data')));
    const cpuLines = children.map((child) => {
      let text = '';
      child.stdout?.on('data', (chunk) => {
        text += chunk;
      });
      return () => Number(/cpu ([\d.]+)/.exec(text)?.[1] ?? Number.NaN);
    });
    const postgresBefore = postgresCpuMs();
    const started = performance.now();
    for (const child of children) child.stdin?.write('go\n');
    // the processes serve the runs as they come; enqueueing is far faster than serving
    const ids = Array.from({ length: runs }, (_, r) => `${queueName}-${r}`);
    for (const [r, workflowID] of ids.entries()) {
      await client.enqueue({ queueName, workflowName: c.workflow, workflowID }, taskFor(r));
    }
    // one query polls the whole batch: a poller per run would load the server it measures
    while ((await servedSpan(db, queueName)).done < runs) await wait(50);
    const wallSeconds = (performance.now() - started) / 1000;
    for (const id of ids) {
      const result = await client.retrieveWorkflow(id).getResult();
      const revision =
        c.workflow === 'memo'
          ? (result as { candidate?: Draft }).candidate?.revision
          : (result as Draft).revision;
      if (revision !== REFINES_TO_VALID) throw new Error(`a ${c.workflow} run ended wrongly`);
    }
    const postgresAfter = postgresCpuMs();
    const span = await servedSpan(db, queueName);
    await stopAll(children);
    return {
      wallSeconds,
      servingSeconds: (span.lastEnd - span.firstStart) / 1000,
      processCpuMs: cpuLines.reduce((sum, read) => sum + read(), 0),
      postgresCpuMs:
        postgresBefore === null || postgresAfter === null ? null : postgresAfter - postgresBefore,
    };
  } finally {
    await stopAll(children);
    await client.deleteQueue(queueName);
  }
}

async function stopAll(children: ChildProcess[]) {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
}

/** How many of a queue's runs succeeded, and when the first was dequeued and the last ended. */
async function servedSpan(db: pg.Client, queueName: string) {
  const { rows } = await db.query<{ done: string; first_start: string; last_end: string }>(
    `SELECT count(*) FILTER (WHERE status = 'SUCCESS') AS done,
            min(started_at_epoch_ms) AS first_start, max(updated_at) AS last_end
       FROM dbos.workflow_status WHERE queue_name = $1`,
    [queueName],
  );
  const row = rows[0];
  return {
    done: Number(row?.done),
    firstStart: Number(row?.first_start),
    lastEnd: Number(row?.last_end),
  };
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `loopchart_bench_dbos_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    await DBOS.migrate(url.toString());
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

export const section: BenchSection = {
  name: 'dbos',
  title: `Loops on DBOS: the loops workload (${STEPS_PER_RUN} steps) on a DBOS queue served by 1, 2 and 4 processes (concurrency ${CONCURRENCY} each, measured after ${WARM_UP_RUNS} warm-up runs), and beside a bare DBOS workflow with the same steps`,
  async run(ctx: BenchContext) {
    const runs = ctx.quick ? 40 : 160;
    const cases: Case[] = [
      { workflow: 'memo', processes: 1, waitMs: 50 },
      { workflow: 'memo', processes: 2, waitMs: 50 },
      { workflow: 'memo', processes: 4, waitMs: 50 },
      { workflow: 'bare', processes: 1, waitMs: 50 },
      { workflow: 'bare', processes: 2, waitMs: 50 },
      { workflow: 'memo', processes: 1, waitMs: 0 },
      { workflow: 'bare', processes: 1, waitMs: 0 },
    ];
    // LOOPCHART_BENCH_DBOS_CASES=memo/1/50,memo/2/50 runs only those (workflow/processes/wait ms)
    const only = process.env.LOOPCHART_BENCH_DBOS_CASES?.split(',');
    if (only) cases.splice(0, cases.length, ...cases.filter((c) => only.includes(keyOf(c))));
    return withDatabase(async (systemDb) => {
      const client = await DBOSClient.create({ systemDatabaseUrl: systemDb });
      const db = new pg.Client({ connectionString: systemDb });
      await db.connect();
      try {
        const rows = [];
        const perSecond = new Map<string, number>();
        for (const [n, c] of cases.entries()) {
          const measured = await measure(db, client, systemDb, runs, c, n);
          const { wallSeconds, servingSeconds } = measured;
          const rate = runs / servingSeconds;
          perSecond.set(keyOf(c), rate);
          ctx.log(
            `${c.workflow}, ${c.processes} process(es), ${c.waitMs} ms attempts: ${rate.toFixed(1)} runs/s served, ${(runs / wallSeconds).toFixed(1)} by the wall clock`,
          );
          rows.push({
            workflow: c.workflow === 'memo' ? 'loopchart loop' : 'bare DBOS workflow',
            'attempt waits': `${c.waitMs} ms`,
            processes: c.processes,
            runs,
            's serving': Number(servingSeconds.toFixed(2)),
            'runs/s': Number(rate.toFixed(1)),
            's wall': Number(wallSeconds.toFixed(2)),
            'runs/s wall': Number((runs / wallSeconds).toFixed(1)),
            'CPU ms/run, processes': Number((measured.processCpuMs / runs).toFixed(1)),
            'CPU ms/run, Postgres':
              measured.postgresCpuMs === null
                ? ''
                : Number((measured.postgresCpuMs / runs).toFixed(1)),
            'cores busy': Number(
              (
                (measured.processCpuMs + (measured.postgresCpuMs ?? 0)) /
                (wallSeconds * 1000)
              ).toFixed(2),
            ),
            'retired scheduler runs/s':
              c.workflow === 'memo' && c.waitMs === 50 ? RETIRED[c.processes] : '',
          });
        }
        const rate = (key: string) => perSecond.get(key) ?? Number.NaN;
        const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
        return {
          rows,
          '2 processes ÷ 1 (50 ms attempts; target ≥ 1.6)': ratio(
            rate('memo/2/50'),
            rate('memo/1/50'),
          ),
          '4 processes ÷ 1 (50 ms attempts)': ratio(rate('memo/4/50'), rate('memo/1/50')),
          'bare DBOS workflow, 2 processes ÷ 1 (50 ms attempts)': ratio(
            rate('bare/2/50'),
            rate('bare/1/50'),
          ),
          'loopchart time per run ÷ bare DBOS (50 ms attempts; target ≤ 1.5)': ratio(
            rate('bare/1/50'),
            rate('memo/1/50'),
          ),
          'loopchart time per run ÷ bare DBOS (0 ms attempts)': ratio(
            rate('bare/1/0'),
            rate('memo/1/0'),
          ),
        };
      } finally {
        await db.end();
        await client.destroy();
      }
    });
  },
};

if (
  process.env.LOOPCHART_BENCH_DBOS === '1' &&
  process.argv[1] === fileURLToPath(import.meta.url)
) {
  await childMain();
}
