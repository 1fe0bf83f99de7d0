/**
 * Loop runs cancelled through DBOS, whose `aborted` outcome is replayed from the journal: past a
 * pause they had answered (DBOS journals a durable timeout with each `recv`), and past a retry
 * wait that was over when the cancel came (DBOS journals a sleep as it begins), so each counts
 * the attempts it made and stops where the cancel caught it. In this process, on the real
 * Postgres server (a database of its own, dropped after).
 */
import { clarificationRequest, transientFailure } from 'loopchart';
import { registerLoop } from 'loopchart/dbos';
import { describe, expect, it } from 'vitest';
import { dbosInProcess } from './dbos/dbosInProcess.js';
import { postgresReachable } from './support/postgresServer.js';

const reachable = await postgresReachable();
const questions: number[] = [];
const loop = registerLoop(
  {
    maxRetries: 3,
    attempt: ({ attempt }) => {
      questions.push(attempt as number);
      return clarificationRequest({ question: 'Which year?' });
    },
    validate: () => ({ valid: true }),
  },
  { name: 'asks-twice' },
);

/** A loop whose attempt fails transiently once, then hangs; it says when the second call began. */
function retryingLoop(retryDelayMs: number) {
  let retried: () => void = () => {};
  const retriedOnce = new Promise<void>((resolve) => {
    retried = resolve;
  });
  const loop = registerLoop(
    {
      maxRetries: 1,
      retryDelayMs,
      idempotent: { attempt: true },
      attempt: ({ attempt, signal }) => {
        if (attempt === 1) throw transientFailure('busy');
        retried();
        return new Promise((_, reject) => {
          (signal as AbortSignal).addEventListener('abort', () => reject(new Error('stopped')));
        });
      },
      validate: () => ({ valid: true }),
    },
    { name: `retries-after-${retryDelayMs}-ms` },
  );
  return { loop, retriedOnce };
}
// a wait with no time left is not journalled at all (DBOS skips a sleep of 0 ms)
const retrying = [retryingLoop(20), retryingLoop(0)];

dbosInProcess('cancel', reachable);

async function pauseNumbered(runId: string, n: number) {
  for (;;) {
    const pause = await loop.pending(runId);
    if (pause?.pause === n) return pause;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.runIf(reachable || process.env.CI)('DBOS runs cancelled mid-run', () => {
  it('reads aborted at the pause the cancel caught, with the attempt the answer led to', async () => {
    const runId = 'asks-twice-1';
    await loop.start('task', { workflowID: runId });
    await pauseNumbered(runId, 1);
    await loop.answer(runId, { type: 'clarification.answer', answer: '2025' }, { pause: 1 });
    await pauseNumbered(runId, 2);
    await loop.cancel(runId);
    const outcome = await loop.outcome(runId);
    expect(questions).toEqual([1, 2]);
    expect(outcome).toMatchObject({ status: 'aborted', attempts: 2 });
    expect(outcome.trace.map((entry) => entry.decision).filter(Boolean)).toEqual([
      'clarify',
      'clarify',
      'aborted',
    ]);
    expect(outcome.rationale).toContain('while it waited for an answer');
  });

  it.each(retrying.map((r, i) => [i === 0 ? '20 ms' : 'no time', r] as const))(
    'counts the attempt after a retry wait that was over (%s left), in flight at the cancel',
    async (_, { loop: retried, retriedOnce }) => {
      const runId = `${retried.name}-1`;
      await retried.start('task', { workflowID: runId });
      await retriedOnce;
      await retried.cancel(runId);
      const outcome = await retried.outcome(runId);
      expect(outcome).toMatchObject({ status: 'aborted', attempts: 2 });
      expect(outcome.rationale).toContain('while attempt was in flight');
    },
  );
});
