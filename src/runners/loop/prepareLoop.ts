import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyStateMachine,
  createActor,
} from 'xstate';
import { gatedSteps, type LoopPlan, planOf } from '../../core/chart/compileLoop.js';
import { StepGate } from '../../core/chart/stepGate.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { ExpectedMachine } from '../../stores/kit/checkpointFormat.js';
import { DEFAULT_CLAIM_TTL_MS, newClaimOwner } from '../../stores/kit/runClaim.js';
import { type Drive, driveLoop } from './driveLoop.js';
import type { RunResult } from './PausedRun.js';

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
  /**
   * A stable writer identity (a hostname, a pod name) used as this process's claim owner instead
   * of a random one per drive: a restarted process with the same identity takes its own runs
   * over at once instead of waiting for their claims to expire. Give each live process its own.
   */
  claimOwner?: string;
}

/**
 * A checkpointed run of a plan: its steps made to wait for checkpoints (the run's own gate), and
 * what identifies its definition; `actor` creates the run's actor with those steps.
 */
export function prepareLoop<I, C>(loop: LoopConfig<I, C> | LoopPlan<I, C>) {
  const plan = planOf(loop);
  const { settings, id: machineId } = plan;
  const gate = new StepGate();
  const steps = gatedSteps(plan, gate);
  const expected: ExpectedMachine = { machineId, fingerprint: plan.fingerprint, settings };
  const actor = (options: ActorOptions<AnyStateMachine>): Actor<AnyStateMachine> => {
    const input = { ...(options.input as object | undefined), steps };
    return createActor(plan.sharedChart as AnyStateMachine, { ...options, input });
  };
  /** Drives the run's actor to its end or next pause; the gate and the machine's identity are filled in. */
  const drive = <C2 = C>(
    run: Omit<Drive, 'gate' | 'machineId' | 'fingerprint'>,
  ): Promise<RunResult<C2>> =>
    driveLoop<C2>({ ...run, gate, machineId, fingerprint: expected.fingerprint });
  return { gate, expected, actor, drive, settings };
}

/** Checks the store and run id a caller passed; throws `LoopConfigError` naming the field. */
export function checkRunOptions(
  options: Partial<CheckpointOptions> & { ifSeq?: unknown },
  runIdRequired: boolean,
) {
  const { store, runId, ifSeq, claimOwner, claimTtlMs = DEFAULT_CLAIM_TTL_MS } = options;
  const problems: string[] = [];
  const methods = ['save', 'load', 'list', 'delete'] as const;
  if (!store || methods.some((m) => typeof store[m] !== 'function')) {
    problems.push('  - store: must be a CheckpointStore (save, load, list, delete)');
  }
  // NUL is refused here, not by a store: Postgres cannot hold it, so no store may take it
  const validId =
    typeof runId === 'string' && runId.length > 0 && runId.length <= 200 && !runId.includes('\0');
  if ((runId !== undefined || runIdRequired) && !validId) {
    problems.push('  - runId: must be a string of 1 to 200 characters, without NUL (\\0)');
  }
  if (ifSeq !== undefined && !(Number.isSafeInteger(ifSeq) && (ifSeq as number) > 0)) {
    problems.push('  - ifSeq: must be a checkpoint number (an integer ≥ 1)');
  }
  if (!(Number.isSafeInteger(claimTtlMs) && claimTtlMs >= 100 && claimTtlMs <= 3_600_000)) {
    problems.push('  - claimTtlMs: must be an integer from 100 to 3600000 (ms)');
  }
  if (claimOwner !== undefined && !validOwner(claimOwner)) {
    problems.push('  - claimOwner: must be a string of 1 to 200 characters, without NUL (\\0)');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid run options\n${problems.join('\n')}`);
  }
  return {
    store: store as CheckpointStore,
    runId: runId ?? globalThis.crypto.randomUUID(),
    claim: { owner: claimOwner ?? newClaimOwner(), ttlMs: claimTtlMs, self: claimOwner },
  };
}

function validOwner(owner: unknown): owner is string {
  return (
    typeof owner === 'string' && owner.length > 0 && owner.length <= 200 && !owner.includes('\0')
  );
}

export type InspectOption = ActorOptions<AnyActorLogic>['inspect'];
