/**
 * createWorker on the real Postgres server: answers and aborts posted with send(), runs no claim
 * can drive, and the options it refuses.
 */
import { clarificationRequest, createWorker } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { counted, deferred, valid } from './support/scriptedSteps.js';
import { postgresReachable } from './workers/postgresServer.js';
import { loopName, sleep, useWorkerStore, waitFor } from './workers/workerHarness.js';

const reachable = await postgresReachable();

describe.skipIf(!reachable)('createWorker on Postgres: events and failures', () => {
  const pg = useWorkerStore('events');
  const { start, done } = pg;

  it('resumes a paused run once send() posts the answer', async () => {
    const loop = loopName();
    const asking = loopName();
    const reviewed = {
      attempt: () => 'draft',
      validate: () => valid,
      review: { beforeProceed: true },
    };
    const clarifying = {
      attempt: ({ answers }: { answers: readonly { answer: unknown }[] }) =>
        answers.length
          ? `for ${String(answers[0]?.answer)}`
          : clarificationRequest({ question: 'Year?' }),
      validate: () => valid,
    };
    const [review, question] = [
      await pg.store.enqueue({ loop }),
      await pg.store.enqueue({ loop: asking }),
    ];
    const { settled } = start({
      loops: { [loop]: reviewed, [asking]: clarifying } as never,
      concurrency: 2,
    });
    const paused = async (runId: string) => (await pg.store.entry(runId))?.state === 'paused';
    await waitFor(() => paused(review), 'the review pause');
    await waitFor(() => paused(question), 'the question');
    const refusal = (runId: string, event: object) =>
      pg.store.send(runId, event as never).catch((e: unknown) => (e as Error).message);
    expect(await refusal(review, { type: 'clarification.answer', answer: 1 })).toMatch(
      /waits in awaitingReview for review\.\*; it cannot take clarification\.answer/,
    );
    expect(await refusal('nobody', { type: 'review.continue' })).toMatch(
      /run 'nobody' is not queued/,
    );
    await pg.store.send(review, { type: 'review.continue' });
    expect(await refusal(review, { type: 'review.continue' })).toMatch(/has an answer waiting/);
    await pg.store.send(question, { type: 'clarification.answer', answer: 2026 });
    // The final save marks the entry done; the worker reports right after it.
    const reported = (runId: string) => async () =>
      settled.find((s) => s.run.runId === runId && s.result.status !== 'paused')?.result;
    expect(await waitFor(reported(review), 'the review')).toMatchObject({ status: 'proceed' });
    expect(await waitFor(reported(question), 'the answer')).toMatchObject({
      status: 'proceed',
      candidate: 'for 2026',
    });
    expect(settled.map((s) => [s.run.runId, s.result.status]).sort()).toEqual(
      [
        [review, 'paused'],
        [question, 'paused'],
        [review, 'proceed'],
        [question, 'proceed'],
      ].sort(),
    );
    expect(await pg.store.entry(review)).toMatchObject({ state: 'done', outcome: 'proceed' });
    expect(await refusal(review, { type: 'review.continue' })).toMatch(/has finished as proceed/);
  });

  it('aborts a running run when send() posts loop.abort, wherever it runs', async () => {
    const loop = loopName();
    const runId = await pg.store.enqueue({ loop, input: 'task' });
    const started = deferred<void>();
    let stepSignal: AbortSignal | undefined;
    start({
      loops: {
        [loop]: {
          attempt: ({ signal }: { signal: AbortSignal }) => {
            stepSignal = signal;
            started.resolve();
            return new Promise(() => {});
          },
          validate: () => valid,
        },
      } as never,
      leaseMs: 1000, // the abort still arrives with the next renewal, within 333 ms
    });
    await started.promise;
    await pg.store.send(runId, { type: 'loop.abort', reason: 'the customer cancelled' });
    expect(await waitFor(done(runId), 'the abort')).toMatchObject({ outcome: 'aborted' });
    expect(stepSignal?.aborted).toBe(true);
  });

  it('aborts a queued run before its first step, and a paused run without an answer', async () => {
    const loop = loopName();
    const attempt = counted(() => 'draft');
    const config = { attempt, validate: () => valid, review: { beforeProceed: true } };
    const queued = await pg.store.enqueue({ loop });
    await pg.store.send(queued, { type: 'loop.abort', reason: 'not needed any more' });
    const paused = await pg.store.enqueue({ loop });
    start({ loops: { [loop]: config } as never });
    expect(await waitFor(done(queued), 'the queued abort')).toMatchObject({ outcome: 'aborted' });
    await waitFor(async () => (await pg.store.entry(paused))?.state === 'paused', 'the pause');
    await pg.store.send(paused, { type: 'loop.abort' });
    expect(await waitFor(done(paused), 'the paused abort')).toMatchObject({ outcome: 'aborted' });
    expect(attempt.calls).toBe(1); // the paused run's; the queued one never attempted
  });

  it('fails a run no claim can drive, and keeps working on the others', async () => {
    const loop = loopName();
    const config = {
      attempt: () => 'draft',
      validate: () => valid,
      review: { beforeProceed: true },
    };
    const [corrupt, fine] = await pg.store.enqueueAll([{ loop }, { loop }]);
    start({ loops: { [loop]: config } as never, concurrency: 2 });
    const paused = async () => (await pg.store.entry(corrupt as string))?.state === 'paused';
    await waitFor(paused, 'the pause');
    await pg.store.pool.query(
      `UPDATE "${pg.schema}".loopchart_checkpoints SET data = '{"format":1' WHERE run_id = $1`,
      [corrupt],
    );
    await pg.store.send(corrupt as string, { type: 'review.continue' });
    await pg.store.send(fine as string, { type: 'review.continue' });
    const failed = await waitFor(done(corrupt as string), 'the failure');
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/is corrupt/) });
    expect(await waitFor(done(fine as string), 'the other run')).toMatchObject({
      outcome: 'proceed',
    });
  });

  it('fails a run after maxClaims claims that never reached a pause or an end', async () => {
    const loop = loopName();
    const runId = await pg.store.enqueue({ loop });
    await pg.store.claim({ owner: 'crashed', loops: [loop], limit: 1, leaseMs: 100 });
    await sleep(150);
    const { errors } = start({
      loops: { [loop]: { attempt: () => 'x', validate: () => valid } } as never,
      maxClaims: 1,
    });
    expect(await waitFor(done(runId), 'the failure')).toMatchObject({
      state: 'failed',
      error: 'claimed 2 times without reaching a pause or an end (maxClaims 1)',
    });
    await waitFor(async () => errors.length > 0, 'the report');
    expect(errors).toHaveLength(1);
  });

  it('refuses bad options at creation, naming each field', () => {
    const bad = () =>
      createWorker({
        store: {} as never,
        loops: { broken: { attempt: () => 1, validate: () => valid, maxRetries: -1 } },
        concurrency: 0,
        leaseMs: 5,
        pollMs: 1.5,
        workerId: '',
      });
    expect(bad).toThrowErrorMatchingInlineSnapshot(`
      [LoopConfigError: loopchart: invalid worker options
        - store: must be a RunQueue (claim, renew, fenced, release, save, load)
        - loops.broken.maxRetries: must be an integer from 0 to 50 (received -1)
        - concurrency: must be an integer from 1 to 1000
        - leaseMs: must be an integer from 100 to 86400000
        - pollMs: must be an integer from 1 to 3600000
        - workerId: must be a string of 1 to 200 characters]
    `);
  });
});
