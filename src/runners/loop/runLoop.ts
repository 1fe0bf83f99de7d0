import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyStateMachine,
  createActor,
} from 'xstate';
import {
  abortedBeforeStart,
  machineAbortedBeforeStart,
} from '../../core/chart/abortedBeforeStart.js';
import { type LoopPlan, planOf } from '../../core/chart/compileLoop.js';
import type { LoopMachine } from '../../core/chart/loopMachine.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { abortOnSignal, abortReason } from './abortOnSignal.js';
import type { RunResult } from './PausedRun.js';
import { type CheckpointOptions, checkRunOptions, prepareLoop } from './prepareLoop.js';
import { checkObservable, type ObserveOptions, type RunWatch, watchRun } from './watchRun.js';

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

/** A loop as runners take it: a config, or the plan `compileLoop` made of one (nothing resolved again). */
export type LoopSource<I, C> = LoopConfig<I, C> | LoopPlan<I, C>;

/**
 * Runs a loop to its end. Resolves to the `LoopOutcome`; rejects only for an invalid config
 * (`LoopConfigError`), never because a step misbehaved.
 *
 * With a `store`, the run is checkpointed after every step: it resolves to the outcome or, when
 * it waits for a person (review, clarification), to a `PausedRun` that `resumeLoop` continues.
 * It then also rejects with `CheckpointError` when the store fails (no further step runs).
 * Pass a plan (`compileLoop(config)`) to run a loop many times without resolving it again.
 * @example const outcome = await runLoop({ attempt, validate, maxRetries: 3 }, 'Summarise the memo');
 *          if (outcome.ok) use(outcome.candidate); else console.log(outcome.error.message);
 */
export function runLoop<I, C>(
  config: LoopSource<I, C>,
  input: I,
  options: RunOptions<C> & CheckpointOptions,
): Promise<RunResult<C>>;
export function runLoop<I, C>(
  config: LoopSource<I, C>,
  input: I,
  options?: RunOptions<C> & { store?: undefined },
): Promise<LoopOutcome<C>>;
export function runLoop<I, C>(
  config: LoopSource<I, C>,
  input: I,
  options?: RunOptions<C> & Partial<CheckpointOptions>,
): Promise<RunResult<C>>;
export async function runLoop<I, C>(
  config: LoopSource<I, C>,
  input: I,
  options: RunOptions<C> & Partial<CheckpointOptions> = {},
): Promise<RunResult<C>> {
  const { inspect, signal } = options;
  const plan = planOf(config);
  if (options.store === undefined) {
    const { settings } = plan;
    checkObservable(options, settings);
    const watch = await watchRun(options, plan.id);
    if (signal?.aborted)
      return settledEarly(watch, abortedBeforeStart(settings, input, abortReason(signal)));
    const actor = createActor(plan.sharedChart, {
      input: { input, steps: plan.steps },
      ...(inspect ? { inspect } : {}),
    }) as unknown as Actor<AnyStateMachine>;
    return watched(watch, actor, () => runToEnd<C>(actor, signal));
  }
  return runLoopAfter(plan, input, options as RunOptions<C> & CheckpointOptions, 0);
}

/**
 * `runLoop` with a store, numbering its checkpoints after `seq`, the row it replaces (0: none).
 * An agent's answered brief is such a row: the loop's first save takes it over by compare-and-set.
 */
export async function runLoopAfter<I, C>(
  config: LoopSource<I, C>,
  input: I,
  options: RunOptions<C> & CheckpointOptions,
  seq: number,
): Promise<RunResult<C>> {
  const { inspect, signal } = options;
  const plan = planOf(config);
  const actorOptions = { input: { input }, ...(inspect ? { inspect } : {}) };
  const { store, runId, claim } = checkRunOptions(options, false);
  const prepared = prepareLoop(plan);
  checkObservable(options, prepared.settings);
  const watch = await watchRun(options, prepared.expected.machineId);
  // the actor would start its first step before it saw the abort, and save it as in flight
  if (signal?.aborted) {
    return settledEarly(watch, abortedBeforeStart(prepared.settings, input, abortReason(signal)));
  }
  const actor = prepared.actor(actorOptions);
  return watched(watch, actor, () =>
    prepared.drive<C>({ actor, store, runId, seq, signal, claim }),
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

/** Starts a storeless run's actor and resolves with its outcome; a pause for a person ends it `aborted`. */
export function runToEnd<C>(actor: Actor<AnyStateMachine>, signal: AbortSignal | undefined) {
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
