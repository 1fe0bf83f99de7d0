import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyStateMachine,
  createActor,
} from 'xstate';
import { type LoopConfig, resolveConfig } from './config.js';
import {
  checkObservable,
  type ObserveOptions,
  type RunWatch,
  watchRun,
} from './events/watchRun.js';
import { abortedBeforeStart, machineAbortedBeforeStart } from './machines/abortedBeforeStart.js';
import type { LoopMachine } from './machines/loopMachine.js';
import { bindSteps, sharedLoopMachine } from './machines/sharedLoopMachine.js';
import { runStepsOf } from './machines/stepActors.js';
import type { LoopOutcome } from './outcome.js';
import { abortOnSignal, abortReason } from './persistence/abortOnSignal.js';
import type { RunResult } from './persistence/PausedRun.js';
import { type CheckpointOptions, checkRunOptions, prepareLoop } from './persistence/prepareLoop.js';

/** Options of one run. */
export interface RunOptions<C = unknown> extends ObserveOptions<C> {
  /**
   * Aborting it ends the run as `aborted` and aborts the in-flight step's `signal`. One aborted
   * before the run starts ends it at once: no step runs and, with a store, nothing is saved.
   */
  signal?: AbortSignal;
  /** An XState inspection observer, e.g. `createBrowserInspector().inspect` from `@statelyai/inspect`. */
  inspect?: ActorOptions<AnyActorLogic>['inspect'];
}

/**
 * Runs a loop to its end. Resolves to the `LoopOutcome`; rejects only for an invalid config
 * (`LoopConfigError`), never because a step misbehaved.
 *
 * With a `store`, the run is checkpointed after every step: it resolves to the outcome or, when
 * it waits for a person (review, clarification), to a `PausedRun` that `resumeLoop` continues.
 * It then also rejects with `CheckpointError` when the store fails (no further step runs).
 * @example const outcome = await runLoop({ attempt, validate, maxRetries: 3 }, 'Summarise the memo');
 *          if (outcome.ok) use(outcome.candidate); else console.log(outcome.error.message);
 */
export function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options: RunOptions<C> & CheckpointOptions,
): Promise<RunResult<C>>;
export function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options?: RunOptions<C> & { store?: undefined },
): Promise<LoopOutcome<C>>;
export function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options?: RunOptions<C> & Partial<CheckpointOptions>,
): Promise<RunResult<C>>;
export async function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options: RunOptions<C> & Partial<CheckpointOptions> = {},
): Promise<RunResult<C>> {
  const { inspect, signal } = options;
  const actorOptions = { input: { input }, ...(inspect ? { inspect } : {}) };
  if (options.store === undefined) {
    const settings = resolveConfig(config);
    const id = config.id ?? 'loop';
    checkObservable(options, settings);
    const watch = await watchRun(options, id);
    if (signal?.aborted)
      return settledEarly(watch, abortedBeforeStart(settings, input, abortReason(signal)));
    const actor = createActor(sharedLoopMachine<I, C>(id, settings), actorOptions);
    bindSteps(actor as unknown as Actor<AnyStateMachine>, runStepsOf(config));
    return watched(watch, actor, () => runToEnd<C>(actor, signal));
  }
  const { store, runId, claim } = checkRunOptions(options, false);
  const prepared = prepareLoop(config);
  checkObservable(options, prepared.settings);
  const watch = await watchRun(options, prepared.expected.machineId);
  // the actor would start its first step before it saw the abort, and save it as in flight
  if (signal?.aborted) {
    return settledEarly(watch, abortedBeforeStart(prepared.settings, input, abortReason(signal)));
  }
  const actor = prepared.actor(actorOptions);
  return watched(watch, actor, () =>
    prepared.drive<C>({ actor, store, runId, seq: 0, signal, claim }),
  );
}

const UNANSWERABLE =
  'the loop paused for a person (a review or a question), but it runs without a store, so no answer can reach it; pass { store } to runLoop to pause and resume';

/**
 * Runs an already built loop machine (e.g. one changed with `.provide()`) to its end. Without a
 * store nothing can answer a pause, so a loop that pauses for a person ends `aborted`, saying so.
 */
export async function runLoopMachine<I, C>(
  machine: LoopMachine<I, C>,
  input: I,
  options: RunOptions<C> = {},
): Promise<LoopOutcome<C>> {
  const { signal, inspect } = options;
  const watch = await watchRun(options, machine.id);
  const early = signal?.aborted
    ? machineAbortedBeforeStart(machine, input, abortReason(signal))
    : undefined;
  if (early) return settledEarly(watch, early);
  const actor = createActor(machine, { input: { input }, ...(inspect ? { inspect } : {}) });
  return watched(watch, actor as unknown as Actor<AnyStateMachine>, () =>
    runToEnd<C>(actor as unknown as Actor<AnyStateMachine>, signal),
  );
}

/** The outcome of a run that ended before it started, reported to its observers. */
function settledEarly<C>(watch: RunWatch | undefined, outcome: LoopOutcome): LoopOutcome<C> {
  watch?.settle(outcome);
  return outcome as LoopOutcome<C>;
}

function watched<T>(
  watch: RunWatch | undefined,
  actor: Actor<AnyStateMachine>,
  start: () => Promise<T>,
): Promise<T> {
  return watch ? watch.watch(actor, false, start) : start();
}

function runToEnd<C>(actor: Actor<AnyStateMachine>, signal: AbortSignal | undefined) {
  return new Promise<LoopOutcome<C>>((resolve, reject) => {
    let detach = () => {};
    actor.subscribe({
      // nothing can answer a pause of a run without a store: it ends instead of waiting forever
      next: (snapshot) => {
        if (snapshot.status === 'active' && snapshot.hasTag('waitsForHuman')) {
          actor.send({ type: 'loop.abort', reason: UNANSWERABLE });
        }
      },
      complete: () => {
        detach();
        resolve(actor.getSnapshot().output as LoopOutcome<C>);
      },
      error: (error) => {
        detach();
        reject(error);
      },
    });
    actor.start();
    detach = abortOnSignal(actor, signal);
  });
}
