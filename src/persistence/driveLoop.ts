import type { Actor, AnyStateMachine, SnapshotFrom } from 'xstate';
import type { LoopEvent } from '../machines/loopEvents.js';
import { type LoopView, loopView } from '../machines/loopView.js';
import type { LoopOutcome } from '../outcome.js';
import type { TraceEntry } from '../trace.js';
import { abortOnSignal } from './abortOnSignal.js';
import { CheckpointError, isCheckpointError } from './CheckpointError.js';
import type { CheckpointStore } from './CheckpointStore.js';
import { encodeCheckpoint, type PersistedSnapshot } from './checkpointFormat.js';
import { pausedRun, type RunResult } from './PausedRun.js';
import { keepClaim } from './runClaim.js';
import type { StepGate } from './stepGate.js';

export interface Drive {
  /** Created, not started: a fresh run or a restored snapshot. */
  actor: Actor<AnyStateMachine>;
  gate: StepGate;
  store: CheckpointStore;
  runId: string;
  machineId: string;
  fingerprint: string;
  /** The stored `seq` this run continues from (0 for a new run). */
  seq: number;
  /** Sent right after start, e.g. a `review.*` answer to a restored pause. */
  event?: LoopEvent | undefined;
  signal?: AbortSignal | undefined;
  /** This drive's claim on the run: every working checkpoint carries it, renewed in time. */
  claim: { owner: string; ttlMs: number };
}

type Snapshot = SnapshotFrom<AnyStateMachine>;

/**
 * Runs an actor to its end or its next pause, saving a checkpoint after every macrostep (each
 * completed step with the decision it led to), one save at a time. A step waits for the save of
 * the snapshot that started it, so a failed save stops the run before its next step: the promise
 * then rejects with `CheckpointError` (`save_failed`, or `conflict` for a second writer) carrying
 * the trace so far. It resolves with the outcome, or with a `PausedRun` once the pause is saved.
 */
export function driveLoop<C>(drive: Drive): Promise<RunResult<C>> {
  const { actor, gate, store, runId, signal, claim } = drive;
  let seq = drive.seq;
  let latest: Snapshot | undefined;
  let settled = false;
  let saves: Promise<void> = Promise.resolve();
  let savedAt = 0;
  return new Promise<RunResult<C>>((resolve, reject) => {
    let detach = () => {};
    const stopRenewing = keepClaim(claim.ttlMs, () => {
      const snapshot = actor.getSnapshot();
      const working = snapshot.status === 'active' && !snapshot.hasTag('waitsForHuman');
      if (working && Date.now() - savedAt >= claim.ttlMs / 3) checkpoint(snapshot);
    });
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      stopRenewing();
      detach();
      actor.stop();
      finish();
    };
    const fail = (error: unknown, snapshot: Snapshot, number: number) =>
      settle(() => reject(saveError(runId, number, error, traceOf(snapshot))));

    const checkpoint = (snapshot: Snapshot) => {
      if (settled) return;
      latest = snapshot;
      savedAt = Date.now();
      const number = ++seq;
      let record: ReturnType<typeof encodeCheckpoint>;
      try {
        const header = {
          runId,
          machineId: drive.machineId,
          machine: drive.fingerprint,
          seq: number,
          paused: snapshot.hasTag('waitsForHuman'),
          claim: { owner: claim.owner, expiresAt: savedAt + claim.ttlMs },
        };
        record = encodeCheckpoint(
          header,
          actor.getPersistedSnapshot() as unknown as PersistedSnapshot,
        );
      } catch (error) {
        fail(error, snapshot, number);
        return;
      }
      saves = saves.then(async () => {
        if (settled) return;
        try {
          await store.save(record);
        } catch (error) {
          fail(error, snapshot, number);
          return;
        }
        if (snapshot !== latest) return; // a later snapshot's save reports
        if (snapshot.status === 'done') settle(() => resolve(snapshot.output as LoopOutcome<C>));
        else if (snapshot.hasTag('waitsForHuman'))
          settle(() => resolve(pausedRun(runId, number, viewOf(snapshot))));
      });
      gate.hold(saves);
    };

    actor.subscribe({
      next: checkpoint,
      error: (error) => settle(() => reject(error)),
    });
    actor.start();
    if (drive.event && !settled) actor.send(drive.event);
    if (!settled) detach = abortOnSignal(actor, signal);
  });
}

// the runner drives loop machines only, so every snapshot it sees holds a loop
const viewOf = (snapshot: Snapshot) => loopView(snapshot) as LoopView;

function traceOf(snapshot: Snapshot): TraceEntry[] {
  return [...(loopView(snapshot)?.trace ?? [])];
}

function saveError(runId: string, seq: number, error: unknown, trace: TraceEntry[]) {
  if (isCheckpointError(error) && error.code === 'conflict') {
    return new CheckpointError('conflict', runId, error.message, { trace, cause: error });
  }
  const why = error instanceof Error ? error.message : String(error);
  return new CheckpointError(
    'save_failed',
    runId,
    `loopchart: saving checkpoint #${seq} of run '${runId}' failed (${why}); the run stopped before its next step. error.trace holds the ${trace.length} trace entries so far`,
    { trace, cause: error },
  );
}
