/** Seams the final review found: each pinned so it cannot come back. */
import { isLoopConfigError, MemoryCheckpointStore, resumeLoop, runLoop } from 'loopchart';
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
