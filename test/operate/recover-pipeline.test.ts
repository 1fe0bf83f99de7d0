/**
 * `recoverRuns` resumes a stranded pipeline by its plan's id, under the same claim rules as a
 * loop: a crash is simulated by copying the row a pipeline left with a stage in flight.
 */
import { type CheckpointRecord, MemoryCheckpointStore, recoverRuns } from 'loopchart';
import { type PipelinePlan, runPipeline } from 'loopchart/pipeline';
import { expect, it } from 'vitest';

it("resumes a pipeline whose writer died: at once under its own claimOwner, not under another's", async () => {
  let started = false;
  const plan = (hang: boolean): PipelinePlan => ({
    id: 'report',
    stages: [
      {
        id: 'a',
        loop: {
          maxRetries: 0,
          idempotent: true,
          attempt: () => {
            started = true;
            return hang ? new Promise<string>(() => {}) : 'table';
          },
          validate: () => ({ valid: true }),
        },
      },
    ],
  });
  const live = new MemoryCheckpointStore();
  const stop = new AbortController();
  const run = runPipeline(plan(true), 'q', {
    store: live,
    runId: 'p1',
    claimOwner: 'pod-a',
    signal: stop.signal,
  });
  const stageRunning = async () => {
    const saved = await live.load('p1');
    return started && JSON.parse(saved?.data ?? '{}').context?.stages?.a?.status === 'running';
  };
  while (!(await stageRunning())) await new Promise((r) => setTimeout(r, 1));
  const row = (await live.load('p1')) as CheckpointRecord;
  stop.abort();
  await run;
  expect(row.status).toBe('running');
  const store = new MemoryCheckpointStore();
  await store.save({ ...row, seq: 1 });

  const pipelines = { report: plan(false) };
  const other = await recoverRuns(store, { pipelines }, { claimOwner: 'pod-b' });
  expect(other.stillClaimed).toMatchObject([{ runId: 'p1', owner: 'pod-a' }]);
  const own = await recoverRuns(store, { pipelines }, { claimOwner: 'pod-a' });
  expect(own.resumed).toEqual([{ runId: 'p1', machineId: 'report', status: 'completed' }]);
});
