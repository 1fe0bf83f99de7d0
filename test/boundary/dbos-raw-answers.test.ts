/**
 * Issue 29: an answer sent straight to a DBOS run's answer topic (`send(runId, { event, pause },
 * ANSWER_TOPIC)`, as a process without loopchart's `answer()` may) passes the same check as
 * `answer()`: the pause fit, then the config's `answers` schemas, their transforms applied once.
 * A refused one leaves the run at its pause. DBOS in this process, on the real Postgres server.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { ANSWER_TOPIC, registerLoop } from 'loopchart/dbos';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dbosInProcess } from '../dbos/dbosInProcess.js';
import { postgresReachable } from '../support/postgresServer.js';

const reachable = await postgresReachable();
const validated: unknown[] = [];
const loop = registerLoop<string, string>(
  {
    review: { beforeProceed: true },
    answers: { candidate: z.string().transform((s) => `${s}!`) },
    attempt: ({ input }) => `draft of ${input}`,
    validate: (candidate) => {
      validated.push(candidate);
      return { valid: true };
    },
  },
  { name: 'reviewed-with-schema' },
);

dbosInProcess('raw-answers', reachable);

async function pauseNumbered(runId: string, n: number) {
  for (;;) {
    const pause = await loop.pending(runId);
    if (pause && pause.pause >= n) return pause;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.runIf(reachable || process.env.CI)('answers sent straight to the answer topic', () => {
  it('are checked against the answers schemas: a bad one is refused and the run stays at its pause', async () => {
    const runId = 'raw-1';
    validated.length = 0;
    await loop.start('memo', { workflowID: runId });
    await pauseNumbered(runId, 1);
    // sent by a process that skips answer(): a candidate the schema refuses, then a good one
    const send = (event: unknown) => DBOS.send(runId, { event, pause: 1 }, ANSWER_TOPIC);
    await send({ type: 'review.modify', candidate: 42 });
    await send({ type: 'review.modify', candidate: 'better' });
    const second = await pauseNumbered(runId, 2);
    expect(second.pause).toBe(2);
    expect(second.pending).toMatchObject({ kind: 'review', candidate: 'better!' });
    await loop.answer(runId, { type: 'review.continue' }, { pause: 2 });
    const outcome = await loop.outcome(runId);
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'better!' });
    expect(validated).toEqual(['draft of memo', 'better!']);
  }, 60_000);

  it('through answer() apply the schema transform once, as the raw topic does', async () => {
    const runId = 'raw-2';
    validated.length = 0;
    await loop.start('memo', { workflowID: runId });
    await pauseNumbered(runId, 1);
    await loop.answer(runId, { type: 'review.modify', candidate: 'better' }, { pause: 1 });
    const second = await pauseNumbered(runId, 2);
    expect(second.pending).toMatchObject({ kind: 'review', candidate: 'better!' });
    await loop.answer(runId, { type: 'review.continue' }, { pause: 2 });
    expect(await loop.outcome(runId)).toMatchObject({ status: 'proceed', candidate: 'better!' });
  }, 60_000);
});
