import type { Actor, AnyActorRef, AnyStateMachine } from 'xstate';
import type { LoopSettings } from '../config.js';
import { LoopStepFailure } from '../failures.js';
import { machineFingerprint } from '../persistence/machineFingerprint.js';
import { buildLoopMachine, type LoopMachine } from './loopMachine.js';
import type { RunSteps, StepsOf } from './stepActors.js';

interface Shared {
  machine: LoopMachine<never, never>;
  settings: LoopSettings;
  fingerprint: string | undefined;
}

// Building a chart costs about a millisecond (XState formats every transition); a run's step
// functions are looked up by its actor system instead, so a config built per call reuses it.
const charts = new Map<string, Shared>();
const stepsOfSystem = new WeakMap<AnyActorRef['system'], RunSteps>();

const stepsOfRun: StepsOf = (system) => {
  const steps = stepsOfSystem.get(system);
  if (!steps) throw new LoopStepFailure('permanent', 'loopchart: no steps were bound to this run');
  return steps;
};

function sharedOf(id: string, settings: LoopSettings): Shared {
  const key = `${id}\u0000${JSON.stringify(settings)}`;
  let shared = charts.get(key);
  if (shared === undefined) {
    const machine = buildLoopMachine<never, never>(id, settings, stepsOfRun);
    shared = { machine, settings, fingerprint: undefined };
    if (charts.size >= 64) charts.clear();
    charts.set(key, shared);
  }
  return shared;
}

/** The loop chart shared by every run with this id and these settings (steps bound per run). */
export function sharedLoopMachine<I, C>(id: string, settings: LoopSettings): LoopMachine<I, C> {
  return sharedOf(id, settings).machine as unknown as LoopMachine<I, C>;
}

/** The `machineFingerprint` of the shared chart, computed once per chart. */
export function sharedFingerprint(id: string, settings: LoopSettings): string {
  const shared = sharedOf(id, settings);
  shared.fingerprint ??= machineFingerprint(shared.machine as AnyStateMachine, settings);
  return shared.fingerprint;
}

/** Hands a run's step functions to the actor of a shared chart; call before `start()`. */
export function bindSteps(actor: Actor<AnyStateMachine>, steps: RunSteps): void {
  stepsOfSystem.set(actor.system, steps);
}
