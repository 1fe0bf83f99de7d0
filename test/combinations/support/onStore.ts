import {
  type CheckpointStore,
  isCheckpointError,
  isPausedRun,
  type LoopConfig,
  type LoopOutcome,
  type RunResult,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { answerEvent, nthAnswer } from './answerEvent.js';
import type { Combination, STORES } from './combination.js';
import { observers, type RunState } from './runState.js';
import { afterExpiry, mortal, openStore, sameRow } from './stores.js';

/**
 * The loop on a store: the process dies at save `crashAtSave` and a new one resumes once the dead
 * writer's claim has expired; every pause is answered (a malformed answer must be refused with
 * the row unchanged) until the run ends.
 */
export async function onStore(
  c: Combination,
  kind: (typeof STORES)[number],
  config: LoopConfig<unknown, unknown>,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const watch = observers(state);
  const { store, close } = openStore(kind, state);
  const runId = globalThis.crypto.randomUUID(); // the Postgres store is shared by every run
  try {
    const first = mortal(store, c.crashAtSave);
    let result: RunResult | undefined;
    state.calls += 1;
    try {
      result = await runLoop(config, 'task', { store: first.view, runId, signal, ...watch });
    } catch (error) {
      if (!first.died()) throw error;
      state.crashes += 1;
      state.segments += 1;
    }
    const resumer = afterExpiry(store);
    if (result === undefined) {
      // nothing was saved before the process died (no step ran): the restarted one starts again
      state.calls += 1;
      result = (await store.load(runId))
        ? await resumeLoop(config, { store: resumer, runId, signal, ...watch })
        : await runLoop(config, 'task', { store: resumer, runId, signal, ...watch });
    }
    // awaited here, so the store closes after the last answer
    return await answerPauses(c, state, store, runId, result, (event, live) =>
      resumeLoop(config, {
        store: resumer,
        runId,
        event: event as never,
        ...watch,
        ...(live ? { signal } : {}),
      }),
    );
  } finally {
    close();
  }
}

/**
 * Answers every pause of a stored loop run until it ends; a malformed answer must be refused
 * with the row unchanged. `resume` sends an answer (`live`: one that resumes the run).
 */
export async function answerPauses(
  c: Combination,
  state: RunState,
  store: CheckpointStore,
  runId: string,
  first: RunResult,
  resume: (event: Record<string, unknown>, live: boolean) => Promise<RunResult>,
): Promise<LoopOutcome> {
  let result = first;
  let answers = 0;
  while (isPausedRun(result)) {
    const answer = nthAnswer(c.answers, answers++);
    const event = answerEvent(answer, result.pending);
    state.calls += 1;
    if (answer === 'bad') {
      await refused(store, runId, () => resume(event, false));
      state.refusals += 1;
      continue;
    }
    state.segments += 1;
    result = await resume(event, true);
  }
  return result;
}

/** Sends a malformed answer: it must fail with `invalid_answer` and leave the stored row as it was. */
export async function refused(
  store: CheckpointStore | undefined,
  runId: string,
  answer: () => Promise<unknown>,
) {
  const before = await store?.load(runId);
  const error = await answer().catch((e: unknown) => e);
  if (!isCheckpointError(error) || error.code !== 'invalid_answer') {
    throw new Error(`a malformed answer was not refused: ${String(error)}`);
  }
  if (store && !sameRow(before, await store.load(runId)))
    throw new Error('a refused answer changed the stored row');
}
