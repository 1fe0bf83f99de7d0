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
import { faultyStore, fromStoreFault } from './faultyStore.js';
import type { Ledger } from './ledger.js';
import { editedRow, mayBeTaken } from './rowEdits.js';
import { observers, type RunState } from './runState.js';
import { afterExpiry, mortal, openStore, putRow, sameRow } from './stores.js';

/**
 * The loop on a store: loopchart sees it through the combination's store faults; the process
 * dies at save `crashAtSave` and a new one resumes once the dead writer's claim has expired; every
 * pause is answered (a malformed answer must be refused with the row unchanged) until the run ends.
 */
export async function onStore(
  c: Combination,
  kind: (typeof STORES)[number],
  config: LoopConfig<unknown, unknown>,
  ledger: Ledger,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const watch = observers(state);
  const { store, close } = openStore(kind, state);
  const runId = globalThis.crypto.randomUUID(); // the Postgres store is shared by every run
  const view = faultyStore(store, c.faults.store, ledger);
  const first = mortal(view, c.crashAtSave);
  const resumer = afterExpiry(view);
  try {
    // awaited here, so the store closes after the last answer
    return await driveSession(c, state, ledger, {
      raw: store,
      runId,
      died: first.died,
      start: (n) =>
        runLoop(config, 'task', { store: n === 1 ? first.view : resumer, runId, signal, ...watch }),
      resume: (event, live, on = resumer) =>
        resumeLoop(config, {
          store: on,
          runId,
          event: event as never,
          ...watch,
          ...(live ? { signal } : {}),
        }),
    });
  } finally {
    close();
  }
}

export interface Session {
  /** The store as it is (no faults), for the harness's own reads and edits. */
  raw: CheckpointStore;
  runId: string;
  /** The `n`th start of the run (again when a process died before anything was saved). */
  start?: (n: number) => Promise<RunResult>;
  /** The run's first result, when something else started it (an agent). */
  first?: RunResult;
  died?: () => boolean;
  /**
   * Resumes the run (`event` an answer, or none after a failure; `live`: it may run steps), on
   * loopchart's view of the store or on `store`.
   */
  resume: (
    event: Record<string, unknown> | undefined,
    live: boolean,
    store?: CheckpointStore,
  ) => Promise<RunResult>;
}

/** No run of the generator needs more calls into loopchart than this (a step-count bound). */
const MAX_CALLS = 40;

/**
 * Drives a stored loop run to its end: answers every pause; carries on after a process that died
 * or a store call that failed or timed out (resuming from the last saved row); checks that every
 * refused call left the stored row byte-identical; before call `rowEdit.beforeCall` edits the row
 * by hand and checks that it is refused `corrupt`, untouched (then restores it), or taken with
 * the config's bounds.
 */
export async function driveSession(
  c: Combination,
  state: RunState,
  ledger: Ledger,
  s: Session,
): Promise<LoopOutcome> {
  let result = s.first;
  let answers = 0;
  for (let call = s.first ? 2 : 1; call <= MAX_CALLS; call += 1) {
    if (result && !isPausedRun(result)) return await reportedTruly(result, state, s);
    const answer = result ? nthAnswer(c.answers, answers++) : undefined;
    const event = result && answer ? answerEvent(answer, result.pending) : undefined;
    const live = answer !== 'bad';
    // the stored row before the call: to start afresh, edit it, or compare it after a refusal
    const mayRefuse =
      !result ||
      answer === 'bad' ||
      c.faults.schemas === 'hang' ||
      c.faults.store.length > 0 ||
      call === c.faults.rowEdit?.beforeCall;
    const before = mayRefuse ? await s.raw.load(s.runId) : undefined;
    state.calls += 1;
    if (before && call === c.faults.rowEdit?.beforeCall) {
      const taken = await editedRowRefused(c, state, s, event, live, before);
      if (taken) {
        if (event) state.segments += 1;
        result = taken;
        continue;
      }
    }
    // a live answer starts a stretch of the run (spans and all), whatever becomes of it
    if (event && live) state.segments += 1;
    try {
      const next =
        !result && !before && s.start ? await s.start(call) : await s.resume(event, live);
      if (answer === 'bad') state.problems.push('a malformed answer was taken');
      if (answer && isPausedRun(next) && next.seq === result?.seq && isPausedRun(result))
        state.problems.push(`an answer left the run at the same pause #${next.seq}`);
      result = next;
    } catch (error) {
      const code = isCheckpointError(error) ? error.code : undefined;
      const restart =
        (call === 1 && s.died?.()) ||
        fromStoreFault(error, ledger.store) ||
        code === 'store_timeout';
      const refusal = code === 'invalid_answer';
      if (!restart && !refusal) throw error;
      // a call that failed before it ran changed nothing; one that failed running may have saved
      if (
        mayRefuse &&
        (refusal || code === 'store_timeout') &&
        !sameRow(before, await s.raw.load(s.runId))
      )
        state.problems.push(`a call refused with ${code} changed the stored row`);
      if (refusal) {
        if (event && live) state.segments -= 1; // refused before it ran anything
        state.refusals += 1;
        if (answer !== 'bad' && c.faults.schemas !== 'hang')
          state.problems.push(`a ${answer} answer was refused: ${String(error)}`);
        continue;
      }
      // a load that failed came before the stretch the answer would have started
      if (event && live && code !== 'save_failed') state.segments -= 1;
      state.crashes += 1;
      state.segments += 1;
      result = undefined;
    }
  }
  throw new Error(`the run did not end after ${MAX_CALLS} calls into loopchart`);
}

/** A run that ended with a save pending reports the row as the store holds it: nothing unsaved as saved. */
async function reportedTruly(outcome: LoopOutcome, state: RunState, s: Session) {
  const unsaved = outcome.ok ? undefined : outcome.error.waitingFor;
  if (unsaved) {
    state.unsavedEnds += 1;
    const seq = (await s.raw.load(s.runId))?.seq ?? 0;
    if (seq !== unsaved.lastSaved)
      state.problems.push(
        `the run ended saying #${unsaved.lastSaved} was saved last; the store holds #${seq}`,
      );
  }
  return outcome;
}

/**
 * Edits the stored row by hand and sends the call: it must be refused `corrupt`, leaving the edited
 * row byte-identical (the row is then restored, as from a backup), unless the edit is one a
 * reader may take, whose result is returned.
 */
async function editedRowRefused(
  c: Combination,
  state: RunState,
  s: Session,
  event: Record<string, unknown> | undefined,
  live: boolean,
  row: NonNullable<Awaited<ReturnType<CheckpointStore['load']>>>,
): Promise<RunResult | undefined> {
  const kind = c.faults.rowEdit?.kind ?? 'truncated';
  const edited = editedRow(row, kind, false);
  await putRow(s.raw, edited);
  const stored = await s.raw.load(s.runId);
  const reply = await s.resume(event, live, afterExpiry(s.raw)).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if ('result' in reply) {
    if (!mayBeTaken(kind, false)) state.problems.push(`a row edited (${kind}) was taken`);
    state.rowEdits.taken += 1;
    return reply.result;
  }
  const { error } = reply;
  if (!isCheckpointError(error) || error.code !== 'corrupt')
    state.problems.push(`a row edited (${kind}) was refused with ${String(error)}, not as corrupt`);
  if (!sameRow(stored, await s.raw.load(s.runId)))
    state.problems.push(`a row edited (${kind}) and refused was changed`);
  state.rowEdits.refused += 1;
  await putRow(s.raw, row);
  return undefined;
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
