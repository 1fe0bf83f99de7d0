/**
 * createWorker on the real Postgres server, in this process: what it claims, how it drives runs
 * (new, answered, abandoned by a dead worker), how it stops on a lost lease or an abort, and what
 * it refuses at creation. test/workers-processes.test.ts has the many-process version.
 */
import { randomUUID } from 'node:crypto';
import {
  type CheckpointRecord,
  type ClaimedRun,
  clarificationRequest,
  createWorker,
  isCheckpointError,
  type Lease,
  type LoopConfig,
  type RunResult,
  runLoop,
  type Worker,
  type WorkerOptions,
} from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { correctable, counted, deferred, valid } from './support/scriptedSteps.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './workers/postgresServer.js';

const reachable = await postgresReachable();
const schema = schemaName('worker');
let store: PostgresCheckpointStore;
const workers: Worker[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loopName = () => `loop-${randomUUID().slice(0, 8)}`;

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A worker whose settled results and errors the test can read. */
function start(options: Omit<WorkerOptions, 'store'>) {
  const settled: { result: RunResult; run: ClaimedRun }[] = [];
  const errors: { error: unknown; run: ClaimedRun | undefined }[] = [];
  const worker = createWorker({
    store,
    pollMs: 20,
    onSettled: (result, run) => settled.push({ result, run }),
    onError: (error, run) => errors.push({ error, run }),
    ...options,
  });
  workers.push(worker);
  return { worker, settled, errors };
}
const done = (runId: string) => async () => {
  const entry = await store.entry(runId);
  return entry?.state === 'done' || entry?.state === 'failed' ? entry : undefined;
};

describe.skipIf(!reachable)('createWorker on Postgres', () => {
  beforeAll(async () => {
    store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
    await store.setup();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });
  afterAll(async () => {
    await store?.close();
    if (reachable) await dropSchema(schema);
  });

  it('drives queued runs of its loops to their outcomes, at most `concurrency` at once', async () => {
    const [a, b] = [loopName(), loopName()];
    let running = 0;
    let most = 0;
    const full = deferred<void>(); // the first attempts wait until three run at once
    const attempt = async ({ input }: { input: number }) => {
      most = Math.max(most, ++running);
      if (running === 3) full.resolve();
      await Promise.race([full.promise, sleep(5000)]);
      await sleep(5);
      running--;
      return input * 10;
    };
    const loops = {
      [a]: { attempt, validate: () => valid },
      [b]: { attempt, validate: () => correctable('never'), maxRetries: 1 },
    };
    const runIds = await store.enqueueAll(
      Array.from({ length: 12 }, (_, n) => ({ loop: n % 3 ? a : b, input: n })),
    );
    const { settled } = start({ loops: loops as never, concurrency: 3 });
    for (const runId of runIds) await waitFor(done(runId), runId);
    await waitFor(async () => settled.length === runIds.length, 'the reports');
    for (const [n, runId] of runIds.entries()) {
      const entry = await store.entry(runId);
      expect(entry?.outcome).toBe(n % 3 ? 'proceed' : 'iteration_exhausted');
      const mine = settled.filter((s) => s.run.runId === runId);
      expect(mine).toHaveLength(1);
      expect(mine[0]?.result.status).toBe(entry?.outcome);
    }
    expect(most).toBe(3);
  });

  it('resumes the runs of a worker that died once their lease expires', async () => {
    for (const idempotent of [false, true]) {
      const loop = loopName();
      const runId = await store.enqueue({ loop, input: 'task' });
      // A worker that claims the run, starts the attempt and then stops answering.
      const [dead] = await store.claim({ owner: 'dead', loops: [loop], limit: 1, leaseMs: 400 });
      const inFlight = deferred<void>();
      const hung = new AbortController();
      const stuck: LoopConfig<string, string> = {
        idempotent: { attempt: idempotent },
        attempt: () => {
          inFlight.resolve();
          return new Promise<string>(() => {});
        },
        validate: () => valid,
      };
      const zombie = runLoop(stuck, 'task', {
        store: store.fenced(dead?.lease as Lease),
        runId,
        signal: hung.signal,
      });
      await inFlight.promise;
      const attempt = counted(() => 'draft');
      const { settled } = start({
        loops: { [loop]: { ...stuck, attempt } } as never,
        leaseMs: 400,
      });
      await waitFor(async () => settled.length > 0, 'the resumed run'); // it reports after its save
      const entry = await store.entry(runId);
      // Claimed (by the server's clock) only once the dead worker's lease had run out.
      const claimed = settled[0]?.run.lease.expiresAt ?? 0;
      expect(claimed - 400).toBeGreaterThanOrEqual(dead?.lease.expiresAt ?? Infinity);
      expect(entry).toMatchObject({ claims: 2, owner: expect.stringMatching(/^worker-/) });
      if (idempotent) {
        expect(settled[0]?.result).toMatchObject({ status: 'proceed', candidate: 'draft' });
        expect(attempt.calls).toBe(1);
      } else {
        expect(settled[0]?.result).toMatchObject({
          status: 'unknown_outcome',
          error: { cause: { step: 'attempt' } },
        });
        expect(attempt.calls).toBe(0);
      }
      // The dead worker wakes up: its abort can no longer be saved.
      hung.abort();
      const woke = await zombie.catch((e: unknown) => e);
      expect(isCheckpointError(woke) && woke.message).toMatch(/lost its lease/);
    }
  });

  it('stops a run whose lease it lost before the next step', async () => {
    const loop = loopName();
    const runId = await store.enqueue({ loop, input: 'task' });
    const inAttempt = deferred<void>();
    const finishAttempt = deferred<string>();
    const validate = counted(() => valid);
    const { errors } = start({
      loops: {
        [loop]: {
          attempt: () => {
            inAttempt.resolve();
            return finishAttempt.promise;
          },
          validate,
        },
      } as never,
      leaseMs: 60_000,
    });
    await inAttempt.promise;
    // Another worker takes the run over (as if this one had stalled past its lease).
    await store.pool.query(
      `UPDATE "${schema}".loopchart_queue SET ready_at = clock_timestamp() WHERE run_id = $1`,
      [runId],
    );
    const [thief] = await store.claim({ owner: 'thief', loops: [loop], limit: 1, leaseMs: 60_000 });
    expect(thief?.runId).toBe(runId);
    const before = (await store.load(runId)) as CheckpointRecord;
    finishAttempt.resolve('draft');
    const { error } = await waitFor(async () => errors[0], 'the refused save');
    expect(isCheckpointError(error) && error.code).toBe('conflict');
    expect((error as Error).message).toMatch(/lost its lease .*worker 'thief' claimed it/);
    expect(validate.calls).toBe(0);
    expect(await store.load(runId)).toEqual(before);
    expect(await store.entry(runId)).toMatchObject({ state: 'leased', owner: 'thief' });
  });

  it('resumes a paused run once send() posts the answer', async () => {
    const loop = loopName();
    const asking = loopName();
    const reviewed = {
      attempt: () => 'draft',
      validate: () => valid,
      review: { beforeProceed: true },
    };
    const clarifying = {
      attempt: ({ answers }: { answers: readonly { answer: unknown }[] }) =>
        answers.length
          ? `for ${String(answers[0]?.answer)}`
          : clarificationRequest({ question: 'Year?' }),
      validate: () => valid,
    };
    const [review, question] = [
      await store.enqueue({ loop }),
      await store.enqueue({ loop: asking }),
    ];
    const { settled } = start({
      loops: { [loop]: reviewed, [asking]: clarifying } as never,
      concurrency: 2,
    });
    const paused = async (runId: string) => (await store.entry(runId))?.state === 'paused';
    await waitFor(() => paused(review), 'the review pause');
    await waitFor(() => paused(question), 'the question');
    const refusal = (runId: string, event: object) =>
      store.send(runId, event as never).catch((e: unknown) => (e as Error).message);
    expect(await refusal(review, { type: 'clarification.answer', answer: 1 })).toMatch(
      /waits in awaitingReview for review\.\*; it cannot take clarification\.answer/,
    );
    expect(await refusal('nobody', { type: 'review.continue' })).toMatch(
      /run 'nobody' is not queued/,
    );
    await store.send(review, { type: 'review.continue' });
    expect(await refusal(review, { type: 'review.continue' })).toMatch(/has an answer waiting/);
    await store.send(question, { type: 'clarification.answer', answer: 2026 });
    // The final save marks the entry done; the worker reports right after it.
    const reported = (runId: string) => async () =>
      settled.find((s) => s.run.runId === runId && s.result.status !== 'paused')?.result;
    expect(await waitFor(reported(review), 'the review')).toMatchObject({ status: 'proceed' });
    expect(await waitFor(reported(question), 'the answer')).toMatchObject({
      status: 'proceed',
      candidate: 'for 2026',
    });
    expect(settled.map((s) => [s.run.runId, s.result.status]).sort()).toEqual(
      [
        [review, 'paused'],
        [question, 'paused'],
        [review, 'proceed'],
        [question, 'proceed'],
      ].sort(),
    );
    expect(await store.entry(review)).toMatchObject({ state: 'done', outcome: 'proceed' });
    expect(await refusal(review, { type: 'review.continue' })).toMatch(/has finished as proceed/);
  });

  it('aborts a running run when send() posts loop.abort, wherever it runs', async () => {
    const loop = loopName();
    const runId = await store.enqueue({ loop, input: 'task' });
    const started = deferred<void>();
    let stepSignal: AbortSignal | undefined;
    start({
      loops: {
        [loop]: {
          attempt: ({ signal }: { signal: AbortSignal }) => {
            stepSignal = signal;
            started.resolve();
            return new Promise(() => {});
          },
          validate: () => valid,
        },
      } as never,
      leaseMs: 300,
    });
    await started.promise;
    await store.send(runId, { type: 'loop.abort', reason: 'the customer cancelled' });
    expect(await waitFor(done(runId), 'the abort')).toMatchObject({ outcome: 'aborted' });
    expect(stepSignal?.aborted).toBe(true);
  });

  it('fails a run no claim can drive, and keeps working on the others', async () => {
    const loop = loopName();
    const config = {
      attempt: () => 'draft',
      validate: () => valid,
      review: { beforeProceed: true },
    };
    const [corrupt, fine] = await store.enqueueAll([{ loop }, { loop }]);
    start({ loops: { [loop]: config } as never, concurrency: 2 });
    const paused = async () => (await store.entry(corrupt as string))?.state === 'paused';
    await waitFor(paused, 'the pause');
    await store.pool.query(
      `UPDATE "${schema}".loopchart_checkpoints SET data = '{"format":1' WHERE run_id = $1`,
      [corrupt],
    );
    await store.send(corrupt as string, { type: 'review.continue' });
    await store.send(fine as string, { type: 'review.continue' });
    const failed = await waitFor(done(corrupt as string), 'the failure');
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/is corrupt/) });
    expect(await waitFor(done(fine as string), 'the other run')).toMatchObject({
      outcome: 'proceed',
    });
  });

  it('fails a run after maxClaims claims that never reached a pause or an end', async () => {
    const loop = loopName();
    const runId = await store.enqueue({ loop });
    await store.claim({ owner: 'crashed', loops: [loop], limit: 1, leaseMs: 100 });
    await sleep(150);
    const { errors } = start({
      loops: { [loop]: { attempt: () => 'x', validate: () => valid } } as never,
      maxClaims: 1,
    });
    expect(await waitFor(done(runId), 'the failure')).toMatchObject({
      state: 'failed',
      error: 'claimed 2 times without reaching a pause or an end (maxClaims 1)',
    });
    await waitFor(async () => errors.length > 0, 'the report');
    expect(errors).toHaveLength(1);
  });

  it('refuses bad options at creation, naming each field', () => {
    const bad = () =>
      createWorker({
        store: {} as never,
        loops: { broken: { attempt: () => 1, validate: () => valid, maxRetries: -1 } },
        concurrency: 0,
        leaseMs: 5,
        pollMs: 1.5,
        workerId: '',
      });
    expect(bad).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid worker options
        - store: must be a RunQueue (claim, renew, fenced, release, save, load)
        - loops.broken.maxRetries: must be an integer from 0 to 50 (received -1)
        - concurrency: must be an integer from 1 to 1000
        - leaseMs: must be an integer from 100 to 86400000
        - pollMs: must be an integer from 1 to 3600000
        - workerId: must be a string of 1 to 200 characters]
    `);
  });
});
