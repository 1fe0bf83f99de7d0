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
import { type Drive, driveLoop } from './driveLoop.js';
import type { RunResult } from './PausedRun.js';
import { DEFAULT_CLAIM_TTL_MS, newClaimOwner } from './runClaim.js';
import { gatedConfig, StepGate } from './stepGate.js';

/** Options of a run that is checkpointed to a store. */
export interface CheckpointOptions {
  store: CheckpointStore;
  /** Names the run in the store; a random UUID when omitted (a paused result carries it). */
  runId?: string;
  /**
   * How long this process's claim on the run holds without renewal (default 30 s; renewed every
   * third of it while the run works). A resumer takes over a run whose writer died once its
   * claim has expired; until then it fails with `CheckpointError` `conflict`.
   */
  claimTtlMs?: number;
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
  /** Drives the run's actor to its end or next pause; the gate and the machine's identity are filled in. */
  const drive = <C2 = C>(
    run: Omit<Drive, 'gate' | 'machineId' | 'fingerprint'>,
  ): Promise<RunResult<C2>> =>
    driveLoop<C2>({ ...run, gate, machineId, fingerprint: expected.fingerprint });
  return { machine, gate, expected, actor, drive, settings };
}

/** Checks the store and run id a caller passed; throws `LoopConfigError` naming the field. */
export function checkRunOptions(
  options: Partial<CheckpointOptions> & { ifSeq?: unknown },
  runIdRequired: boolean,
) {
  const { store, runId, ifSeq, claimTtlMs = DEFAULT_CLAIM_TTL_MS } = options;
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
  if (!(Number.isSafeInteger(claimTtlMs) && claimTtlMs >= 100 && claimTtlMs <= 3_600_000)) {
    problems.push('  - claimTtlMs: must be an integer from 100 to 3600000 (ms)');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid run options\n${problems.join('\n')}`);
  }
  return {
    store: store as CheckpointStore,
    runId: runId ?? globalThis.crypto.randomUUID(),
    claim: { owner: newClaimOwner(), ttlMs: claimTtlMs },
  };
}

export type InspectOption = ActorOptions<AnyActorLogic>['inspect'];
