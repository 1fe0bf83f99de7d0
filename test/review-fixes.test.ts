/** Seams the final review found: each pinned so it cannot come back. */
import {
  isLoopConfigError,
  type LoopConfig,
  MemoryCheckpointStore,
  type RunEvent,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { runPipeline } from 'loopchart/pipeline';
import { runDetail } from 'loopchart/serve';
import { describe, expect, it } from 'vitest';

const valid = () => ({ valid: true as const });

describe('resumeLoop', () => {
  it('checks its observing options on a run it only reads (finished or paused)', async () => {
    const store = new MemoryCheckpointStore();
    const config = { attempt: () => 'x', validate: valid };
    await runLoop(config, 'q', { store, runId: 'done' });
    const refused = await resumeLoop(config, {
      store,
      runId: 'done',
      onEvent: 5 as never,
    }).catch((error: unknown) => error);
    expect(isLoopConfigError(refused)).toBe(true);
  });
});

describe('run detail of a pipeline paused inside a stage', () => {
  it('offers the stage loop answers and pipeline.abort, not the pipeline.* pause answers', async () => {
    const store = new MemoryCheckpointStore();
    const plan = {
      stages: [
        {
          id: 'draft',
          loop: { review: { beforeProceed: true }, attempt: () => 'd', validate: valid },
        },
      ],
    };
    const paused = await runPipeline(plan, null, { store, runId: 'p' });
    expect(paused.status).toBe('paused');
    const record = await store.load('p');
    if (!record) throw new Error('no record');
    const detail = runDetail(record);
    expect(detail.kind === 'pipeline' && detail.answerWith).toEqual([
      'review.continue',
      'review.modify',
      'review.retry',
      'review.abort',
      'pipeline.abort',
    ]);
  });
});

describe('run events where observing meets other features', () => {
  it('refuses to observe a loop whose trace is off, naming both options', async () => {
    const error = await runLoop({ attempt: () => 'x', validate: valid, trace: false }, 'q', {
      onEvent: () => {},
    }).catch((e: unknown) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toMatch(/onEvent, tracer: need the loop's trace/);
  });

  it('a store-less run that pauses for a review reports only its aborted outcome', async () => {
    const events: RunEvent[] = [];
    const outcome = await runLoop(
      { attempt: () => 'x', validate: valid, review: { beforeProceed: true } },
      'q',
      { onEvent: (event) => events.push(event) },
    );
    expect(outcome.status).toBe('aborted');
    expect(events.filter((e) => e.type === 'pause')).toEqual([]);
    expect(
      events
        .filter((e) => e.type === 'outcome')
        .map((e) => e.type === 'outcome' && e.outcome.status),
    ).toEqual(['aborted']);
  });

  it('a resumed run reports the in-flight step it runs again as started', async () => {
    const store = new MemoryCheckpointStore();
    let release = () => {};
    let calls = 0;
    const config: LoopConfig<string, string> = {
      idempotent: true,
      attempt: () => {
        calls += 1;
        return calls === 1
          ? new Promise<string>((r) => {
              release = () => r('late');
            })
          : 'again';
      },
      validate: valid,
    };
    const first = runLoop(config, 'q', { store, runId: 'r' });
    await expect.poll(() => calls).toBe(1);
    const row = await store.load('r');
    if (!row) throw new Error('no checkpoint');
    const { claim: _, ...data } = JSON.parse(row.data);
    const copy = new MemoryCheckpointStore();
    await copy.save({ ...row, data: JSON.stringify(data) });
    const events: RunEvent[] = [];
    const outcome = await resumeLoop(config, {
      store: copy,
      runId: 'r',
      onEvent: (e) => events.push(e),
    });
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'again' });
    const kinds = events.map((e) => (e.type === 'step.started' ? `started:${e.step}` : e.type));
    expect(kinds.indexOf('started:attempt')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('started:attempt')).toBeLessThan(kinds.indexOf('step.finished'));
    release();
    await first;
  });
});

describe('the chart of a loop without a deadline', () => {
  it('holds no deadline branches, and a loop with one holds both', async () => {
    const { createLoopMachine } = await import('loopchart');
    const { toMachineJson } = await import('loopchart/analysis');
    const guards = (deadlineMs: number | null) =>
      toMachineJson(createLoopMachine({ attempt: () => 'x', validate: valid, deadlineMs }))
        .edges.map((edge) => edge.guard)
        .filter((guard) => guard === 'stoppedByDeadline' || guard === 'retryWaitHitDeadline')
        .sort();
    expect(guards(null)).toEqual([]);
    expect(guards(60_000)).toEqual(['retryWaitHitDeadline', 'stoppedByDeadline']);
  });
});
