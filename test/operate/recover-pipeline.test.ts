/**
 * `recoverRuns` resumes a stranded pipeline by its plan's id, under the same claim rules as a
 * loop: a crash is simulated by copying the row a pipeline left with a stage in flight. A
 * pipeline this process still drives is left to its driver.
 */
import {
  type CheckpointRecord,
  type CheckpointStore,
  isCheckpointError,
  MemoryCheckpointStore,
  recoverRuns,
} from 'loopchart';
import { type PipelinePlan, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { expect, it } from 'vitest';

/** A one-stage pipeline whose attempt is `attempt`, counted. */
function reportPlan(attempt: () => string | Promise<string>) {
  const counted = { attempts: 0 };
  const plan: PipelinePlan = {
    id: 'report',
    stages: [
      {
        id: 'a',
        loop: {
          maxRetries: 0,
          idempotent: true,
          attempt: () => {
            counted.attempts += 1;
            return attempt();
          },
          validate: () => ({ valid: true }),
        },
      },
    ],
  };
  return { plan, counted };
}

/** Waits (real turns) until the stage's attempt has begun and the running stage is saved. */
async function stageRunning(store: CheckpointStore, counted: { attempts: number }) {
  const saved = async () =>
    counted.attempts > 0 &&
    JSON.parse((await store.load('p1'))?.data ?? '{}').context?.stages?.a?.status === 'running';
  while (!(await saved())) await new Promise((r) => setTimeout(r, 1));
}

it("resumes a pipeline whose writer died: at once under its own claimOwner, not under another's", async () => {
  const { plan: hanging, counted } = reportPlan(() => new Promise<string>(() => {}));
  const live = new MemoryCheckpointStore();
  const stop = new AbortController();
  const run = runPipeline(hanging, 'q', {
    store: live,
    runId: 'p1',
    claimOwner: 'pod-a',
    signal: stop.signal,
  });
  await stageRunning(live, counted);
  const row = (await live.load('p1')) as CheckpointRecord;
  stop.abort();
  await run;
  expect(row.status).toBe('running');
  const store = new MemoryCheckpointStore();
  await store.save({ ...row, seq: 1 });

  const pipelines = { report: reportPlan(() => 'table').plan };
  const other = await recoverRuns(store, { pipelines }, { claimOwner: 'pod-b' });
  expect(other.stillClaimed).toMatchObject([{ runId: 'p1', owner: 'pod-a' }]);
  const own = await recoverRuns(store, { pipelines }, { claimOwner: 'pod-a' });
  expect(own.resumed).toEqual([{ runId: 'p1', machineId: 'report', status: 'completed' }]);
});

it('leaves a pipeline this process drives to its driver, and resumePipeline under the same owner is refused', async () => {
  let release = () => {};
  const { plan, counted } = reportPlan(
    () => new Promise<string>((resolve) => (release = () => resolve('table'))),
  );
  const store = new MemoryCheckpointStore();
  const live = runPipeline(plan, 'q', { store, runId: 'p1', claimOwner: 'pod-a' });
  await stageRunning(store, counted);
  const report = await recoverRuns(store, { pipelines: { report: plan } }, { claimOwner: 'pod-a' });
  expect(report).toMatchObject({ resumed: [], stillClaimed: [{ runId: 'p1', owner: 'pod-a' }] });
  const again = await resumePipeline(plan, { store, runId: 'p1', claimOwner: 'pod-a' }).catch(
    (error: unknown) => error,
  );
  expect(isCheckpointError(again) && again.code).toBe('conflict');
  release();
  await expect(live).resolves.toMatchObject({ status: 'completed' });
  expect(counted.attempts).toBe(1);
});
