import { type ActorOptions, type AnyActorLogic, createActor } from 'xstate';
import type { LoopConfig } from './config.js';
import { abortedBeforeStart } from './machines/abortedBeforeStart.js';
import type { LoopMachine } from './machines/loopMachine.js';
import { loopMachineFor } from './machines/loopMachineFor.js';
import type { LoopOutcome } from './outcome.js';
import { abortOnSignal, abortReason } from './persistence/abortOnSignal.js';
import { driveLoop } from './persistence/driveLoop.js';
import type { RunResult } from './persistence/PausedRun.js';
import { type CheckpointOptions, checkRunOptions, prepareLoop } from './persistence/prepareLoop.js';

/** Options of one run. */
export interface RunOptions {
  /** Aborting it ends the run as `aborted` and aborts the in-flight step's `signal`. */
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
  options: RunOptions & CheckpointOptions,
): Promise<RunResult<C>>;
export function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options?: RunOptions & { store?: undefined },
): Promise<LoopOutcome<C>>;
export function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options?: RunOptions & Partial<CheckpointOptions>,
): Promise<RunResult<C>>;
export async function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options: RunOptions & Partial<CheckpointOptions> = {},
): Promise<RunResult<C>> {
  if (options.store === undefined) return runLoopMachine(loopMachineFor(config), input, options);
  const { store, runId, claim } = checkRunOptions(options, false);
  const { machine, gate, expected } = prepareLoop(config);
  const { inspect } = options;
  return driveLoop<C>({
    actor: createActor(machine, { input: { input }, ...(inspect ? { inspect } : {}) }),
    gate,
    store,
    runId,
    machineId: expected.machineId,
    fingerprint: expected.fingerprint,
    seq: 0,
    signal: options.signal,
    claim,
  });
}

const UNANSWERABLE =
  'the loop paused for a person (a review or a question), but it runs without a store, so no answer can reach it; pass { store } to runLoop to pause and resume';

/**
 * Runs an already built loop machine (e.g. one changed with `.provide()`) to its end. Without a
 * store nothing can answer a pause, so a loop that pauses for a person ends `aborted`, saying so.
 */
export function runLoopMachine<I, C>(
  machine: LoopMachine<I, C>,
  input: I,
  { signal, inspect }: RunOptions = {},
): Promise<LoopOutcome<C>> {
  const early = signal?.aborted
    ? abortedBeforeStart(machine, input, abortReason(signal))
    : undefined;
  if (early) return Promise.resolve(early as LoopOutcome<C>);
  return new Promise((resolve, reject) => {
    const actor = createActor(machine, { input: { input }, ...(inspect ? { inspect } : {}) });
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
