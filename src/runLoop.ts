import { type ActorOptions, type AnyActorLogic, createActor } from 'xstate';
import type { LoopConfig } from './config.js';
import { createLoopMachine, type LoopMachine } from './machines/loopMachine.js';
import type { LoopOutcome } from './outcome.js';

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
 * @example const outcome = await runLoop({ attempt, validate, maxRetries: 3 }, 'Summarise the memo');
 *          if (outcome.ok) use(outcome.candidate); else console.log(outcome.error.message);
 */
export async function runLoop<I, C>(
  config: LoopConfig<I, C>,
  input: I,
  options: RunOptions = {},
): Promise<LoopOutcome<C>> {
  return runLoopMachine(createLoopMachine(config), input, options);
}

/** Runs an already built loop machine (e.g. one changed with `.provide()`) to its end. */
export function runLoopMachine<I, C>(
  machine: LoopMachine<I, C>,
  input: I,
  { signal, inspect }: RunOptions = {},
): Promise<LoopOutcome<C>> {
  return new Promise((resolve, reject) => {
    const actor = createActor(machine, { input: { input }, ...(inspect ? { inspect } : {}) });
    const abort = () => actor.send({ type: 'loop.abort', reason: abortReason(signal) });
    actor.subscribe({
      complete: () => {
        signal?.removeEventListener('abort', abort);
        resolve(actor.getSnapshot().output as LoopOutcome<C>);
      },
      error: (error) => {
        signal?.removeEventListener('abort', abort);
        reject(error);
      },
    });
    actor.start();
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message || reason.name;
  return 'the caller aborted the run';
}
