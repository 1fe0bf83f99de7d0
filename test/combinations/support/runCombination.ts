import {
  type CheckpointRecord,
  type CheckpointStore,
  createLoopMachine,
  isCheckpointError,
  isPausedRun,
  type LoopOutcome,
  MemoryCheckpointStore,
  type RunEvent,
  type RunResult,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { type PipelineRunResult, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { assign, createActor, setup } from 'xstate';
import {
  answerEvent,
  type Combination,
  deadlineOf,
  type Ledger,
  newLedger,
  scriptedConfig,
} from './combination.js';

/** What one combination came to: the loop's outcome and what the world saw. */
export interface CombinationRun {
  outcome: LoopOutcome;
  ledger: Ledger;
  /** Processes that "died" (a save failed) and were resumed. */
  crashes: number;
  /** Malformed answers refused, each with the stored row unchanged. */
  refusals: number;
  /** Live stretches of the run: the first, and one after each answer or resume. */
  segments: number;
  /** The run events `onEvent` delivered (plain and store hosts), in order: outcome statuses and decisions. */
  events: { outcomes: string[]; decisions: number };
  elapsedMs: number;
  maxAttempts: number;
  maxRetries: number;
}

const WATCHDOG_MS = 5000;

/** Runs a combination on its host to the end; rejects on a hang, a crash of loopchart, or a broken promise. */
export async function runCombination(c: Combination): Promise<CombinationRun> {
  const ledger = newLedger();
  const config = scriptedConfig(c, ledger);
  const settings = { maxAttempts: c.maxAttempts ?? Math.min(100, 2 * (c.maxRetries + 1)) };
  const controller = new AbortController();
  const abortTimer =
    c.abortAfterMs === null
      ? undefined
      : setTimeout(() => controller.abort('the user cancelled'), c.abortAfterMs);
  const state = { crashes: 0, refusals: 0, segments: 1, events: { outcomes: [], decisions: 0 } };
  const started = Date.now();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  try {
    const run = (async () => {
      switch (c.host) {
        case 'plain':
          return runLoop(config, 'task', { signal: controller.signal, onEvent: recorder(state) });
        case 'actor':
          return inAppActor(c, config, controller.signal, state);
        case 'pipeline':
          return inPipeline(c, config, controller.signal, state);
        default:
          return onStore(c, config, controller.signal, state);
      }
    })();
    const outcome = await Promise.race([
      run,
      new Promise<never>((_, reject) => {
        watchdog = setTimeout(
          () =>
            reject(
              new Error(
                `the run did not settle within ${WATCHDOG_MS} ms (deadlineMs ${deadlineOf(c)})`,
              ),
            ),
          WATCHDOG_MS,
        );
      }),
    ]);
    return {
      outcome,
      ledger,
      ...state,
      elapsedMs: Date.now() - started,
      maxAttempts: settings.maxAttempts,
      maxRetries: c.maxRetries,
    };
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(watchdog);
  }
}

type RunState = {
  crashes: number;
  refusals: number;
  segments: number;
  events: CombinationRun['events'];
};

/** An `onEvent` that counts what the property checks: outcomes and decisions. */
function recorder(state: RunState) {
  return (event: RunEvent) => {
    if (event.type === 'outcome') state.events.outcomes.push(event.outcome.status);
    if (event.type === 'decision') state.events.decisions += 1;
  };
}

/** A store that dies at save `at`: that save and every later one fail, as if the process was killed. */
function mortal(store: CheckpointStore, at: number | null) {
  let saves = 0;
  let dead = false;
  const view: CheckpointStore = {
    save: async (record) => {
      saves += 1;
      if (dead || (at !== null && saves >= at)) {
        dead = true;
        throw new Error('the process died');
      }
      return store.save(record);
    },
    load: (id) => store.load(id),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
  return { view, died: () => dead };
}

/** The store as a resumer sees it once a dead writer's claim has expired. */
function afterExpiry(store: CheckpointStore): CheckpointStore {
  return {
    save: (record) => store.save(record),
    load: async (id) => {
      const record = await store.load(id);
      if (!record) return record;
      const { claim: _, ...data } = JSON.parse(record.data);
      return { ...record, data: JSON.stringify(data) };
    },
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
}

async function onStore(
  c: Combination,
  config: ReturnType<typeof scriptedConfig>,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const onEvent = recorder(state);
  const store = storeFor(c.host);
  const runId = globalThis.crypto.randomUUID(); // the Postgres store is shared by every run
  try {
    const first = mortal(store, c.crashAtSave);
    let result: RunResult | undefined;
    try {
      result = await runLoop(config, 'task', { store: first.view, runId, signal, onEvent });
    } catch (error) {
      if (!first.died()) throw error;
      state.crashes += 1;
      state.segments += 1;
    }
    const resumer = afterExpiry(store);
    if (result === undefined) {
      // nothing was saved before the process died (no step ran): the restarted one starts again
      result = (await store.load(runId))
        ? await resumeLoop(config, { store: resumer, runId, signal, onEvent })
        : await runLoop(config, 'task', { store: resumer, runId, signal, onEvent });
    }
    let answers = 0;
    while (isPausedRun(result)) {
      const answer = c.answers[Math.min(answers++, c.answers.length - 1)] ?? 'continue';
      const event = answerEvent(answers > 12 ? 'abort' : answer, result.pending);
      if (answer === 'bad' && answers <= 12) {
        const before = await store.load(runId);
        const refused = await resumeLoop(config, {
          store: resumer,
          runId,
          event: event as never,
          onEvent,
        }).catch((e: unknown) => e);
        const after = await store.load(runId);
        if (!isCheckpointError(refused) || refused.code !== 'invalid_answer') {
          throw new Error(`a malformed answer was not refused: ${String(refused)}`);
        }
        if (!sameRow(before, after)) throw new Error('a refused answer changed the stored row');
        state.refusals += 1;
        continue;
      }
      state.segments += 1;
      result = await resumeLoop(config, {
        store: resumer,
        runId,
        event: event as never,
        signal,
        onEvent,
      });
    }
    return result;
  } finally {
    if (store instanceof SqliteCheckpointStore) store.close();
  }
}

let postgres: CheckpointStore | undefined;

/** Gives the Postgres host a store (set up by the test); without one it runs on memory. */
export function usePostgres(store: CheckpointStore | undefined): void {
  postgres = store;
}

function storeFor(host: Combination['host']): CheckpointStore {
  if (host === 'sqlite') return new SqliteCheckpointStore(':memory:');
  if (host === 'postgres' && postgres) return postgres;
  return new MemoryCheckpointStore();
}

function sameRow(a: CheckpointRecord | undefined, b: CheckpointRecord | undefined) {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function inPipeline(
  c: Combination,
  config: ReturnType<typeof scriptedConfig>,
  signal: AbortSignal,
  state: { refusals: number; segments: number },
): Promise<LoopOutcome> {
  const store = new MemoryCheckpointStore();
  const plan = { id: 'combo', stages: [{ id: 'stage', loop: config }] };
  let result: PipelineRunResult = await runPipeline(plan, 'task', { store, runId: 'p', signal });
  let answers = 0;
  while (result.status === 'paused') {
    const { pause } = result;
    const answer = c.answers[Math.min(answers++, c.answers.length - 1)] ?? 'continue';
    let event: Record<string, unknown>;
    if (pause.reason === 'stage_paused') {
      if (answer === 'bad' && answers <= 12) {
        const before = await store.load('p');
        const refused = await resumePipeline(plan, {
          store,
          runId: 'p',
          event: { type: 'review.modify', stage: 'stage' } as never,
        }).catch((e: unknown) => e);
        if (!isCheckpointError(refused) || refused.code !== 'invalid_answer') {
          throw new Error(`a malformed stage answer was not refused: ${String(refused)}`);
        }
        if (!sameRow(before, await store.load('p')))
          throw new Error('a refused answer changed the record');
        state.refusals += 1;
        continue;
      }
      const loopAnswer = answerEvent(answers > 12 ? 'abort' : answer, pause.pending.stage);
      event =
        loopAnswer.type === 'loop.abort'
          ? { type: 'pipeline.abort', reason: 'the person left' }
          : { ...loopAnswer, stage: 'stage' };
    } else {
      event = { type: 'pipeline.continue' };
    }
    state.segments += 1;
    result = await resumePipeline(plan, { store, runId: 'p', event: event as never, signal });
  }
  const outcome = result.stages.stage?.outcome;
  if (result.status === 'aborted' && !outcome) return abortedStand(result.message);
  if (!outcome) throw new Error(`the pipeline ended ${result.status} without a stage outcome`);
  return outcome;
}

/** A pipeline aborted before or while its stage ran has no loop outcome; stand in for one. */
function abortedStand(message: string): LoopOutcome {
  return {
    status: 'aborted',
    ok: false,
    iterations: 0,
    attempts: 0,
    cost: 0,
    rationale: message,
    trace: [
      {
        seq: 1,
        iterationIndex: 0,
        attempt: 0,
        retryCount: 0,
        state: 'stage',
        decision: 'aborted',
        startedAt: 0,
        durationMs: 0,
      },
    ],
    partial: undefined,
    error: { kind: 'aborted', state: 'stage', attempts: 0, message },
  };
}

/** The loop spawned inside an app machine; pauses are answered by sending the child events. */
function inAppActor(
  c: Combination,
  config: ReturnType<typeof scriptedConfig>,
  signal: AbortSignal,
  state: { segments: number },
): Promise<LoopOutcome> {
  const app = setup({
    types: { context: {} as { outcome?: LoopOutcome } },
    actors: { loop: createLoopMachine(config) },
  }).createMachine({
    context: {},
    initial: 'working',
    states: {
      working: {
        invoke: {
          id: 'loop',
          src: 'loop',
          input: { input: 'task' },
          onDone: {
            target: 'done',
            actions: assign({ outcome: ({ event }) => event.output as LoopOutcome }),
          },
        },
      },
      done: { type: 'final' },
    },
  });
  return new Promise((resolve, reject) => {
    const actor = createActor(app);
    let answers = 0;
    actor.subscribe({
      complete: () => resolve(actor.getSnapshot().context.outcome as LoopOutcome),
      error: reject,
    });
    actor.start();
    const child = actor.getSnapshot().children.loop;
    child?.subscribe((snapshot) => {
      if (snapshot.status !== 'active' || !snapshot.hasTag('waitsForHuman')) return;
      let answer = c.answers[Math.min(answers++, c.answers.length - 1)] ?? 'continue';
      if (answer === 'bad') answer = 'continue'; // unchecked here: answer checking is resumeLoop's
      const event = answerEvent(answers > 12 ? 'abort' : answer, snapshot.context.pending);
      state.segments += 1;
      queueMicrotask(() => child.send(event as never));
    });
    const abort = () => child?.send({ type: 'loop.abort', reason: 'the user cancelled' });
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}
