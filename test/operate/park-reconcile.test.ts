/**
 * Parking and reconciling in one process (SPEC §16, issue 34): a crash is simulated by copying
 * the row a run left while its attempt was in flight into a fresh store, as a dead process
 * would leave it. The answers to a parked run are untrusted input; two answers racing apply once.
 */
import {
  type CheckpointRecord,
  isCheckpointError,
  MemoryCheckpointStore,
  reconcileRun,
  recoverRuns,
  resumeLoop,
} from 'loopchart';
import { loopHealth } from 'loopchart/health';
import { describe, expect, it } from 'vitest';
import { crashedRun } from './strandedRun.js';

async function parked(runId = 'r1') {
  const crashed = await crashedRun(runId, 'pod-a');
  const report = await recoverRuns(
    crashed.store,
    { loops: { charge: crashed.config } },
    { claimOwner: 'pod-a', inFlight: 'park' },
  );
  expect(report.parked).toEqual([{ runId, machineId: 'charge', step: 'attempt' }]);
  return { ...crashed, row: (await crashed.store.load(runId)) as CheckpointRecord };
}

const codeOf = (error: unknown) => (isCheckpointError(error) ? error.code : error);

describe('recoverRuns in one process', () => {
  it("leaves a live writer's run alone, names runs of loops it was not given, and parks only when asked", async () => {
    const { store, config, row, calls } = await crashedRun('r1', 'pod-a');
    const other = await recoverRuns(store, { loops: { charge: config } }, { claimOwner: 'pod-b' });
    expect(other.stillClaimed).toEqual([
      { runId: 'r1', owner: 'pod-a', expiresAt: expect.any(Number) },
    ]);
    const unknown = await recoverRuns(store, { loops: {} }, { claimOwner: 'pod-a' });
    expect(unknown.unknownLoop).toEqual([{ runId: 'r1', machineId: 'charge' }]);
    expect((await store.load('r1'))?.data).toBe(row.data);
    const ended = await recoverRuns(store, { loops: { charge: config } }, { claimOwner: 'pod-a' });
    expect(ended.resumed).toEqual([
      { runId: 'r1', machineId: 'charge', status: 'unknown_outcome' },
    ]);
    expect(calls).toEqual([]);
  });

  it('does not count a run another recoverer finished after it was read as resumed by this one', async () => {
    const { store, config, row } = await crashedRun('r1', 'pod-a');
    const stale = { ...row };
    await recoverRuns(store, { loops: { charge: config } }, { claimOwner: 'pod-a' }); // the other
    let reads = 0;
    const late = Object.assign(Object.create(store) as MemoryCheckpointStore, {
      list: async () => [{ ...stale, data: undefined }],
      load: async (runId: string) => (reads++ === 0 ? stale : store.load(runId)),
    });
    const report = await recoverRuns(late, { loops: { charge: config } }, { claimOwner: 'pod-a' });
    expect(report.resumed).toEqual([]);
    expect(report.stillClaimed.map((entry) => entry.runId)).toEqual(['r1']);
  });

  it('refuses bad options by name', async () => {
    const store = new MemoryCheckpointStore();
    await expect(recoverRuns(store, {}, { concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(recoverRuns(store, {}, { claimOwner: '' })).rejects.toThrow(/claimOwner/);
  });
});

describe('a parked run', () => {
  it('is paused with its reason, its deadline clock stopped; resumeLoop refuses it and names reconcileRun', async () => {
    const { store, config, row } = await parked();
    expect(row.status).toBe('paused');
    const data = JSON.parse(row.data);
    expect(data.parked).toMatchObject({ reason: 'unknown_outcome', step: 'attempt' });
    expect(data.claim).toBeUndefined();
    expect(data.snapshot.context.ledger).toMatchObject({
      deadlineAt: null,
      deadlineLeftMs: expect.any(Number),
    });
    const refused = await resumeLoop(config, { store, runId: 'r1' }).catch((e) => e);
    expect(codeOf(refused)).toBe('not_waiting');
    expect(refused.message).toMatch(/reconcileRun/);
    expect((await store.load('r1'))?.data).toBe(row.data);
    const health = await loopHealth(store);
    expect(health.loops.find((loop) => loop.loop === 'charge')?.unfinished).toEqual({
      running: 0,
      paused: 1,
    });
  });

  it.each([
    ['not an object', null],
    ['an unknown type', { type: 'review.continue' }],
    ['happened without a result', { type: 'outcome.happened' }],
    ['a result JSON cannot hold', { type: 'outcome.happened', result: { n: 1n } }],
    ['an extra field', { type: 'outcome.did_not_happen', result: 'x' }],
  ])(
    'refuses %s as invalid_answer, the row byte-identical and the run still answerable',
    async (_, answer) => {
      const { store, config, row, calls } = await parked();
      const refused = await reconcileRun(config, {
        store,
        runId: 'r1',
        answer: answer as never,
      }).catch(codeOf);
      expect(refused).toBe('invalid_answer');
      expect((await store.load('r1'))?.data).toBe(row.data);
      const settled = await reconcileRun(config, {
        store,
        runId: 'r1',
        answer: { type: 'outcome.did_not_happen' },
      });
      expect(settled).toMatchObject({ status: 'proceed', candidate: 'charged order 7' });
      expect(calls).toEqual(['order 7']);
    },
  );

  it('takes one of two answers racing: the step runs once, the other is refused conflict', async () => {
    const { store, config, calls } = await parked();
    const answer = { type: 'outcome.did_not_happen' } as const;
    const results = await Promise.allSettled([
      reconcileRun(config, { store, runId: 'r1', answer }),
      reconcileRun(config, { store, runId: 'r1', answer }),
    ]);
    const codes = results.map((r) =>
      r.status === 'fulfilled' ? r.value.status : codeOf(r.reason),
    );
    expect(codes.sort()).toEqual(['conflict', 'proceed']);
    expect(calls).toEqual(['order 7']);
  });

  it('refuses an answer pinned to another checkpoint, and an answer to a run that is not parked', async () => {
    const { store, config, row } = await parked();
    const answer = { type: 'outcome.give_up' } as const;
    const stale = reconcileRun(config, { store, runId: 'r1', answer, ifSeq: row.seq - 1 });
    expect(await stale.catch(codeOf)).toBe('conflict');
    expect(
      await reconcileRun(config, { store, runId: 'r1', answer, ifSeq: row.seq }),
    ).toMatchObject({
      status: 'unknown_outcome',
    });
    expect(await reconcileRun(config, { store, runId: 'r1', answer }).catch(codeOf)).toBe(
      'not_waiting',
    );
  });
});
