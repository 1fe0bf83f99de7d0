/**
 * A loop run cancelled through DBOS after a pause it had answered: its `aborted` outcome is
 * replayed from the journal, past the answered pause (DBOS journals a durable timeout with each
 * `recv`), so it counts the attempt the answer led to and stops at the pause the cancel caught.
 * In this process, on the real Postgres server (a database of its own, dropped after).
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { clarificationRequest } from 'loopchart';
import { registerLoop } from 'loopchart/dbos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from './dbos/dbosDatabase.js';
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

let database: { name: string; url: string } | undefined;
beforeAll(async () => {
  if (!reachable) return;
  database = await createDatabase('cancel');
  DBOS.setConfig({ name: 'loopchart-cancel', systemDatabaseUrl: database.url, logLevel: 'error' });
  await DBOS.launch();
}, 60_000);
afterAll(async () => {
  if (!reachable) return;
  await DBOS.shutdown();
  if (database) await dropDatabase(database.name);
}, 60_000);

async function pauseNumbered(runId: string, n: number) {
  for (;;) {
    const pause = await loop.pending(runId);
    if (pause?.pause === n) return pause;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.runIf(reachable || process.env.CI)('a DBOS run cancelled after an answered pause', () => {
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
});
