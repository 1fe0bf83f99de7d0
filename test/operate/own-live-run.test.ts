/**
 * A process recovering under its own `claimOwner` while it is still driving some of those runs
 * (a periodic `recoverRuns` beside live work, or two recoveries at once): the claim cannot tell
 * this process's live run from its dead predecessor's, so the process must know its own. Found
 * by the operate combinations under load (CI, seed -1903364031): the second of two racing
 * recoverers read the row the first had just saved and parked the attempt the first was running.
 */
import {
  type LoopConfig,
  MemoryCheckpointStore,
  type RunResult,
  recoverRuns,
  runLoop,
} from 'loopchart';
import { describe, expect, it } from 'vitest';

function heldLoop() {
  const calls: number[] = [];
  let release = () => {};
  let started = () => {};
  const attemptStarted = new Promise<void>((resolve) => (started = resolve));
  const config: LoopConfig<string, string> = {
    id: 'charge',
    idempotent: { attempt: false },
    attempt: ({ attempt }) => {
      calls.push(attempt);
      started();
      return new Promise<string>((resolve) => (release = () => resolve(`paid@${attempt}`)));
    },
    validate: () => ({ valid: true }),
  };
  return { config, calls, attemptStarted, release: () => release() };
}

describe.each(['park', 'end'] as const)(
  'recoverRuns (inFlight: %s) beside a run this process drives',
  (inFlight) => {
    it('leaves the live run to its driver: still claimed, nothing parked, resumed or run twice', async () => {
      const store = new MemoryCheckpointStore();
      const { config, calls, attemptStarted, release } = heldLoop();
      const live: Promise<RunResult<string>> = runLoop(config, 'order', {
        store,
        runId: 'r1',
        claimOwner: 'pod-a',
      });
      await attemptStarted;
      const before = await store.load('r1');
      expect(before?.status).toBe('running');
      const report = await recoverRuns(
        store,
        { loops: { charge: config } },
        { claimOwner: 'pod-a', inFlight },
      );
      expect(report.parked).toEqual([]);
      expect(report.resumed).toEqual([]);
      expect(report.stillClaimed.map((entry) => entry.runId)).toEqual(['r1']);
      expect((await store.load('r1'))?.data).toBe(before?.data);
      release();
      const outcome = await live;
      expect(outcome).toMatchObject({ status: 'proceed', candidate: 'paid@1' });
      expect(calls).toEqual([1]);
      // once its driver is done, a recovery finds nothing
      const after = await recoverRuns(
        store,
        { loops: { charge: config } },
        { claimOwner: 'pod-a' },
      );
      expect(after).toMatchObject({ resumed: [], parked: [], stillClaimed: [] });
    });
  },
);
