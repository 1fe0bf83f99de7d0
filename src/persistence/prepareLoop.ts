import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyStateMachine,
  createActor,
} from 'xstate';
import { type LoopConfig, resolveConfig } from '../config.js';
import { LoopConfigError } from '../LoopConfigError.js';
import { bindSteps, sharedFingerprint, sharedLoopMachine } from '../machines/sharedLoopMachine.js';
import { runStepsOf } from '../machines/stepActors.js';
import type { CheckpointStore } from './CheckpointStore.js';
import type { ExpectedMachine } from './checkpointFormat.js';
import { gatedConfig, StepGate } from './stepGate.js';

/** Options of a run that is checkpointed to a store. */
export interface CheckpointOptions {
  store: CheckpointStore;
  /** Names the run in the store; a random UUID when omitted (a paused result carries it). */
  runId?: string;
}

/**
 * The shared loop chart of a config, its steps made to wait for checkpoints, and what identifies
 * its definition. The config is resolved here, once per run; `actor` creates the run's actor.
 */
export function prepareLoop<I, C>(config: LoopConfig<I, C>) {
  const settings = resolveConfig(config);
  const machineId = config.id ?? 'loop';
  const gate = new StepGate();
  const machine = sharedLoopMachine<I, C>(machineId, settings);
  const steps = runStepsOf(gatedConfig(config, gate));
  const expected: ExpectedMachine = {
    machineId,
    fingerprint: sharedFingerprint(machineId, settings),
    settings,
  };
  const actor = (options: ActorOptions<AnyStateMachine>): Actor<AnyStateMachine> => {
    const created = createActor(machine as AnyStateMachine, options);
    bindSteps(created, steps);
    return created;
  };
  return { machine, gate, expected, actor };
}

/** Checks the store and run id a caller passed; throws `LoopConfigError` naming the field. */
export function checkRunOptions(
  options: Partial<CheckpointOptions> & { ifSeq?: unknown },
  runIdRequired: boolean,
) {
  const { store, runId, ifSeq } = options;
  const problems: string[] = [];
  const methods = ['save', 'load', 'list', 'delete'] as const;
  if (!store || methods.some((m) => typeof store[m] !== 'function')) {
    problems.push('  - store: must be a CheckpointStore (save, load, list, delete)');
  }
  const validId = typeof runId === 'string' && runId.length > 0 && runId.length <= 200;
  if ((runId !== undefined || runIdRequired) && !validId) {
    problems.push('  - runId: must be a string of 1 to 200 characters');
  }
  if (ifSeq !== undefined && !(Number.isSafeInteger(ifSeq) && (ifSeq as number) > 0)) {
    problems.push('  - ifSeq: must be a checkpoint number (an integer ≥ 1)');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid run options\n${problems.join('\n')}`);
  }
  return { store: store as CheckpointStore, runId: runId ?? globalThis.crypto.randomUUID() };
}

export type InspectOption = ActorOptions<AnyActorLogic>['inspect'];
