import { setTimeout as sleep } from 'node:timers/promises';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { LoopOutcome } from 'loopchart';
import { type DbosLoop, isDbosRunError } from 'loopchart/dbos';
import { answerEvent, nthAnswer } from './answerEvent.js';
import type { Combination } from './combination.js';
import type { Ledger } from './ledger.js';
import type { CombinationRun } from './runCombination.js';
import { newRunState } from './runState.js';

const POLL_MS = 5;
const WATCHDOG_MS = 30_000;

/**
 * One combination as a DBOS workflow (registered with its own ledger before launch): started,
 * every pause it publishes answered from outside (a malformed answer must be refused), cancelled
 * through DBOS where the combination aborts, and its outcome read back. The workflow itself must
 * end SUCCESS, or CANCELLED when it was cancelled: a user step's misbehaviour is an outcome.
 */
export async function onDbos(
  c: Combination,
  loop: DbosLoop<unknown, unknown>,
  ledger: Ledger,
): Promise<CombinationRun> {
  const state = newRunState(c);
  const runId = globalThis.crypto.randomUUID();
  const started = Date.now();
  let cancelled = false;
  const cancel = async () => {
    cancelled = true;
    await loop.cancel(runId);
  };
  state.calls += 1;
  await loop.start('task', { workflowID: runId });
  const abortTimer =
    c.abortAfterMs === null ? undefined : setTimeout(() => void cancel(), c.abortAfterMs);
  let settled = false;
  const outcome = loop.outcome(runId).finally(() => {
    settled = true;
  });
  outcome.catch(() => {});
  try {
    let answers = 0;
    let answered: number | undefined;
    while (!settled) {
      if (Date.now() - started > WATCHDOG_MS) throw new Error(`run ${runId} did not settle`);
      const pause = await loop.pending(runId);
      if (!pause || pause.pause === answered) {
        await sleep(POLL_MS);
        continue;
      }
      const answer = nthAnswer(c.answers, answers++);
      const event = answerEvent(answer, pause.pending as { kind: string });
      state.calls += 1;
      if (event.type === 'loop.abort') {
        await cancel();
        break;
      }
      try {
        await loop.answer(runId, event as never, { pause: pause.pause });
        if (answer === 'bad') state.problems.push('a malformed answer was taken');
        answered = pause.pause;
        state.segments += 1;
      } catch (error) {
        if (!isDbosRunError(error)) throw error;
        // the abort timer may cancel the run between reading its pause and answering it
        if (error.code === 'not_waiting' && cancelled) continue;
        if (error.code !== 'refused' || answer !== 'bad')
          state.problems.push(`a ${answer} answer was refused: ${error.message}`);
        state.refusals += 1;
      }
    }
    const ended = (await outcome) as LoopOutcome;
    state.cancelledInFlight =
      cancelled && ended.status === 'aborted' && ended.rationale.includes('was in flight');
    const status = (await DBOS.getWorkflowStatus(runId))?.status;
    const expected = cancelled ? ['CANCELLED', 'SUCCESS'] : ['SUCCESS'];
    if (!expected.includes(String(status))) state.problems.push(`the workflow ended ${status}`);
    const elapsedMs = Date.now() - started;
    return { ...state, outcome: ended, ledger, elapsedMs, budgetMs: 0, firings: 0 };
  } finally {
    clearTimeout(abortTimer);
  }
}
