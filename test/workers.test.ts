/**
 * createWorker on the real Postgres server, in this process: how it drives queued runs, resumes the
 * runs of a dead worker, and stops a run whose lease it lost. test/workers-events.test.ts covers
 * answers, aborts and failures; test/workers-processes.test.ts the many-process version.
 */
import {
  type CheckpointRecord,
  type CheckpointStore,
  isCheckpointError,
  type Lease,
  type LoopConfig,
  runLoop,
} from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable, counted, deferred, valid } from './support/scriptedSteps.js';
import { postgresReachable } from './workers/postgresServer.js';
import { loopName, sleep, useWorkerStore, waitFor } from './workers/workerHarness.js';

const reachable = await postgresReachable();

describe.skipIf(!reachable)('createWorker on Postgres', () => {
  const pg = useWorkerStore('worker');
  const { start, done } = pg;

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
    const runIds = await pg.store.enqueueAll(
      Array.from({ length: 12 }, (_, n) => ({ loop: n % 3 ? a : b, input: n })),
    );
    const { settled } = start({ loops: loops as never, concurrency: 3 });
    for (const runId of runIds) await waitFor(done(runId), runId);
    await waitFor(async () => settled.length === runIds.length, 'the reports');
    for (const [n, runId] of runIds.entries()) {
      const entry = await pg.store.entry(runId);
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
      const runId = await pg.store.enqueue({ loop, input: 'task' });
      // A worker that claims the run, starts the attempt and then stops answering.
      const [dead] = await pg.store.claim({
        owner: 'dead',
        loops: [loop],
        limit: 1,
        leaseMs: 1000,
      });
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
      // Once its attempt is in flight the worker freezes: its saves (the claim's renewals
      // included) hang until it wakes, so its 500 ms claim on the run lapses before its lease.
      const fenced = pg.store.fenced(dead?.lease as Lease);
      let wake = () => {};
      const woken = new Promise<void>((resolve) => (wake = resolve));
      let frozen = false;
      const frozenStore: CheckpointStore = {
        save: async (record) => {
          if (frozen) await woken;
          return fenced.save(record);
        },
        load: (id) => fenced.load(id),
        list: (options) => fenced.list(options),
        delete: (id) => fenced.delete(id),
      };
      const zombie = runLoop(stuck, 'task', {
        store: frozenStore,
        runId,
        signal: hung.signal,
        claimTtlMs: 500,
      }).catch((e: unknown) => e);
      await inFlight.promise;
      frozen = true;
      const attempt = counted(() => 'draft');
      const { settled } = start({
        loops: { [loop]: { ...stuck, attempt } } as never,
        leaseMs: 1000,
      });
      await waitFor(async () => settled.length > 0, 'the resumed run'); // it reports after its save
      const entry = await pg.store.entry(runId);
      // Claimed (by the server's clock) only once the dead worker's lease had run out.
      const claimed = settled[0]?.run.lease.expiresAt ?? 0;
      expect(claimed - 1000).toBeGreaterThanOrEqual(dead?.lease.expiresAt ?? Infinity);
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
      wake();
      hung.abort();
      const woke = await zombie;
      expect(isCheckpointError(woke) && woke.message).toMatch(/lost its lease/);
    }
  });

  it('keeps the lease of a step that outlasts it by renewing, so no other worker takes over', async () => {
    const loop = loopName();
    const runId = await pg.store.enqueue({ loop, input: 'task' });
    const attempt = counted(async () => {
      await sleep(2500); // 2.5 leases: renewed twice, with 660 ms of slack for a slow renewal
      return 'draft';
    });
    const config = { [loop]: { attempt, validate: () => valid } } as never;
    const first = start({ loops: config, leaseMs: 1000 });
    await waitFor(async () => attempt.calls > 0, 'the attempt');
    const second = start({ loops: config, leaseMs: 1000 });
    await waitFor(pg.done(runId), 'the run');
    expect(await pg.store.entry(runId)).toMatchObject({ outcome: 'proceed', claims: 1 });
    expect(attempt.calls).toBe(1);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('stops a run whose lease it lost before the next step', async () => {
    const loop = loopName();
    const runId = await pg.store.enqueue({ loop, input: 'task' });
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
    await pg.store.pool.query(
      `UPDATE "${pg.schema}".loopchart_queue SET ready_at = clock_timestamp() WHERE run_id = $1`,
      [runId],
    );
    const [thief] = await pg.store.claim({
      owner: 'thief',
      loops: [loop],
      limit: 1,
      leaseMs: 60_000,
    });
    expect(thief?.runId).toBe(runId);
    const before = (await pg.store.load(runId)) as CheckpointRecord;
    finishAttempt.resolve('draft');
    const { error } = await waitFor(async () => errors[0], 'the refused save');
    expect(isCheckpointError(error) && error.code).toBe('conflict');
    expect((error as Error).message).toMatch(/lost its lease .*worker 'thief' claimed it/);
    expect(validate.calls).toBe(0);
    expect(await pg.store.load(runId)).toEqual(before);
    expect(await pg.store.entry(runId)).toMatchObject({ state: 'leased', owner: 'thief' });
  });
});
