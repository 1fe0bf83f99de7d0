/**
 * Found by the combination suite with faults on: a store whose save rejects with a value every
 * trap of which throws (a hostile proxy) made the pipeline runner throw while it described the
 * failure, so `runPipeline` rejected with the trap's raw error and never stopped its stages; the
 * loop runner typed it, but lost the store's value. Both reject `save_failed`, the value as cause.
 */
import { isCheckpointError, MemoryCheckpointStore, runLoop } from 'loopchart';
import { runPipeline } from 'loopchart/pipeline';
import { describe, expect, it } from 'vitest';

const hostile = new Proxy(
  {},
  {
    get: () => {
      throw new Error('hostile proxy trap');
    },
    getPrototypeOf: () => {
      throw new Error('hostile proxy trap');
    },
  },
);

class HostileStore extends MemoryCheckpointStore {
  override async save(): Promise<void> {
    throw hostile;
  }
}

const loop = { attempt: () => 'draft', validate: () => ({ valid: true as const }) };

describe('a store whose save rejects with a hostile value', () => {
  it.each([
    ['runLoop', () => runLoop(loop, 'memo', { store: new HostileStore(), runId: 'r' })],
    [
      'runPipeline',
      () =>
        runPipeline({ stages: [{ id: 'only', loop }] }, 'memo', {
          store: new HostileStore(),
          runId: 'p',
        }),
    ],
  ])('%s rejects save_failed with the value as its cause', async (_, run) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCheckpointError(error) && error.code).toBe('save_failed');
    expect((error as Error).cause).toBe(hostile);
  });
});
