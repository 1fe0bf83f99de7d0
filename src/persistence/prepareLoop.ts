import type { ActorOptions, AnyActorLogic, AnyStateMachine } from 'xstate';
import { type LoopConfig, type LoopSettings, resolveConfig } from '../config.js';
import { LoopConfigError } from '../LoopConfigError.js';
import { createLoopMachine } from '../machines/loopMachine.js';
import type { CheckpointStore } from './CheckpointStore.js';
import type { ExpectedMachine } from './checkpointFormat.js';
import { machineFingerprint } from './machineFingerprint.js';
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

/** A loop machine whose steps wait for checkpoints, and what identifies its definition. */
export function prepareLoop<I, C>(config: LoopConfig<I, C>) {
  const settings = resolveConfig(config);
  const gate = new StepGate();
  const machine = createLoopMachine(gatedConfig(config, gate));
  const expected: ExpectedMachine = {
    machineId: machine.id,
    fingerprint: fingerprintOf(machine, settings),
    settings,
  };
  return { machine, gate, expected };
}

// createLoopMachine builds the chart from the id and the resolved settings alone, so the walk
// (~0.7 ms) is done once per distinct pair; test/persistence.test.ts checks that premise.
const fingerprints = new Map<string, string>();

function fingerprintOf(machine: AnyStateMachine, settings: LoopSettings): string {
  const key = `${machine.id}\u0000${JSON.stringify(settings)}`;
  let fingerprint = fingerprints.get(key);
  if (fingerprint === undefined) {
    fingerprint = machineFingerprint(machine, settings);
    if (fingerprints.size >= 64) fingerprints.clear();
    fingerprints.set(key, fingerprint);
  }
  return fingerprint;
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
