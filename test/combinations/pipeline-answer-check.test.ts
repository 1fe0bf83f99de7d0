/**
 * Found by the combination suite with faults on: an answer to a stage paused in a pipeline was
 * checked against the stage loop's answer schemas with no time limit, so a schema that never
 * answers hung `resumePipeline` for good, `deadlineMs` or not. It is bounded like a loop's answer
 * check (SPEC §14): within the stage loop's deadline and the grace, then refused, untouched.
 */
import { clarificationRequest, isCheckpointError, MemoryCheckpointStore } from 'loopchart';
import { type PipelinePlan, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { track } from '../boundary/support/hangingStore.js';
import { simulatedTime } from '../boundary/support/simulatedTime.js';

simulatedTime();

const hangs = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    validate: () => new Promise<never>(() => {}),
  },
};

const plan: PipelinePlan = {
  stages: [
    {
      id: 'ask',
      loop: {
        deadlineMs: 2000,
        answers: { clarification: hangs },
        attempt: ({ answers }) =>
          answers.length === 0 ? clarificationRequest({ question: 'Which year?' }) : 'report',
        validate: () => ({ valid: true }),
      },
    },
  ],
};

describe('an answer to a paused pipeline stage whose schema never answers', () => {
  it('is refused within the stage loop’s deadline and the grace, the record untouched', async () => {
    const store = new MemoryCheckpointStore();
    const paused = await runPipeline(plan, 'Q3', { store, runId: 'p' });
    expect(paused.status).toBe('paused');
    const before = await store.load('p');
    const event = { type: 'clarification.answer', stage: 'ask', answer: '2025' } as const;
    const answered = track(resumePipeline(plan, { store, runId: 'p', event }));
    await vi.advanceTimersByTimeAsync(1999);
    expect(answered.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1001);
    expect(answered.settled).toBe(true);
    expect(isCheckpointError(answered.error) && answered.error.code).toBe('invalid_answer');
    expect(String(answered.error)).toMatch(/did not answer within/);
    expect(await store.load('p')).toEqual(before);
  });
});
