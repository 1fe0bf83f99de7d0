import type { Actor, AnyStateMachine, SnapshotFrom } from 'xstate';
import { GRACE_MS } from '../../core/chart/deadline.js';
import type { LoopContext } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import type { StepGate } from '../../core/chart/stepGate.js';
import { type Clock, monotonicClock } from '../../core/vocabulary/clock.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import {
  CheckpointError,
  failureMessage,
  isCheckpointError,
} from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { encodeCheckpoint, type PersistedSnapshot } from '../../stores/kit/checkpointFormat.js';
import { whileDrivenHere } from '../../stores/kit/drivenHere.js';
import { jsonProblem } from '../../stores/kit/jsonProblem.js';
import { keepClaim, releaseClaim } from '../../stores/kit/runClaim.js';
import { abortOnSignal } from './abortOnSignal.js';
import { pausedRun, type RunResult } from './PausedRun.js';
import { unsavedOutcome } from './unsavedOutcome.js';

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
  /** What the deadline and the claim's renewals are measured on (default the monotonic clock). */
  clock?: Clock | undefined;
}

type Snapshot = SnapshotFrom<AnyStateMachine>;

/**
 * Runs an actor to its end or its next pause, saving a checkpoint after every macrostep (each
 * completed step with the decision it led to), one save at a time. A step waits for the save of
 * the snapshot that started it, so a failed save stops the run before its next step: the promise
 * then rejects with `CheckpointError` (`save_failed`, or `conflict` for a second writer) carrying
 * the trace so far, once the writer's claim is released. It resolves with the outcome, or with a
 * `PausedRun` once the pause is saved. A save still pending `GRACE_MS` after the run's
 * deadline ends it `ceiling_stop`, naming that save (`unsavedOutcome`).
 */
export function driveLoop<C>(drive: Drive): Promise<RunResult<C>> {
  const { actor, gate, store, runId, signal, claim, clock = monotonicClock } = drive;
  let seq = drive.seq;
  let acknowledged = drive.seq;
  let lastRecord: CheckpointRecord | undefined;
  let latest: Snapshot | undefined;
  let settled = false;
  let saves: Promise<void> = Promise.resolve();
  let savedAt = Number.NEGATIVE_INFINITY;
  let deadline: number | null = null;
  let cancelWatch = () => {};
  const run = new Promise<RunResult<C>>((resolve, reject) => {
    let detach = () => {};
    const stopRenewing = keepClaim(claim.ttlMs, () => {
      const snapshot = actor.getSnapshot();
      const working = snapshot.status === 'active' && !snapshot.hasTag('waitsForHuman');
      if (working && clock.now() - savedAt >= claim.ttlMs / 3) checkpoint(snapshot);
    });
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      stopRenewing();
      cancelWatch();
      detach();
      actor.stop();
      finish();
    };
    const fail = (error: unknown, snapshot: Snapshot, number: number) => {
      if (settled) return;
      const failure = saveError(runId, number, error, traceOf(snapshot));
      settle(() => {});
      releaseClaim(store, lastRecord, acknowledged + 1, clock).then(() => reject(failure));
    };
    // the deadline covers the saves: one still pending past it (and the grace) ends the run
    const watch = (snapshot: Snapshot) => {
      // never later within a drive: a pause not yet saved keeps counting, an abort meanwhile too
      const live = liveDeadline(snapshot, clock);
      deadline = live === null ? deadline : Math.min(live, deadline ?? live);
      cancelWatch();
      if (deadline === null || acknowledged === seq) return;
      cancelWatch = clock.after(deadline + GRACE_MS - clock.now(), () => {
        const last = actor.getSnapshot();
        const waitingFor = {
          operation: 'save' as const,
          checkpoint: acknowledged + 1,
          lastSaved: acknowledged,
        };
        const outcome = unsavedOutcome(last.context, stateName(last.value), waitingFor);
        settle(() => resolve(outcome as LoopOutcome<C>));
      });
    };

    const checkpoint = (snapshot: Snapshot) => {
      if (settled) return;
      latest = snapshot;
      savedAt = clock.now();
      const number = ++seq;
      let record: CheckpointRecord;
      try {
        const header = {
          runId,
          machineId: drive.machineId,
          machine: drive.fingerprint,
          seq: number,
          paused: snapshot.hasTag('waitsForHuman'),
          claim: { owner: claim.owner, expiresAt: Date.now() + claim.ttlMs },
        };
        record = encodeCheckpoint(
          header,
          actor.getPersistedSnapshot() as unknown as PersistedSnapshot,
        );
      } catch (error) {
        fail(unencodable(error, snapshot), snapshot, number);
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
        acknowledged = number;
        lastRecord = record;
        if (acknowledged === seq) cancelWatch();
        if (snapshot !== latest) return; // a later snapshot's save reports
        if (snapshot.status === 'done') settle(() => resolve(snapshot.output as LoopOutcome<C>));
        else if (snapshot.hasTag('waitsForHuman'))
          settle(() => resolve(pausedRun(runId, number, viewOf(snapshot))));
      });
      // whatever goes wrong in the chain ends the run here: nothing is left to reject unheard
      saves = saves.catch((error: unknown) => fail(error, snapshot, number));
      gate.hold(saves);
      watch(snapshot);
    };

    actor.subscribe({
      next: checkpoint,
      error: (error) => settle(() => reject(error)),
    });
    actor.start();
    if (drive.event && !settled) actor.send(drive.event);
    if (!settled) detach = abortOnSignal(actor, signal);
  });
  return whileDrivenHere(store, runId, run);
}

/**
 * When the run's live time ends: its deadline while it works, or, on entering a pause, now plus
 * the time it has left (the pause is not saved yet, so it still counts). `null`: no deadline.
 */
function liveDeadline(snapshot: Snapshot, clock: Clock): number | null {
  const ledger = (snapshot.context as LoopContext).ledger;
  if (ledger.deadlineAt !== null) return ledger.deadlineAt;
  return ledger.deadlineLeftMs === null ? null : clock.now() + ledger.deadlineLeftMs;
}

// the runner drives loop machines only, so every snapshot it sees holds a loop
const viewOf = (snapshot: Snapshot) => loopView(snapshot) as LoopView;

/** Why a checkpoint could not be encoded, naming the field that is not JSON when one is not. */
function unencodable(error: unknown, snapshot: Snapshot): unknown {
  const problem = jsonProblem(snapshot.context as Record<string, unknown>);
  if (!problem) return error;
  return new Error(
    `the run holds a value a checkpoint cannot store: its ${problem}; a checkpointed run keeps its inputs, candidates and verdicts as JSON`,
    { cause: error },
  );
}

function stateName(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function traceOf(snapshot: Snapshot): TraceEntry[] {
  return [...(loopView(snapshot)?.trace ?? [])];
}

function saveError(runId: string, seq: number, error: unknown, trace: TraceEntry[]) {
  if (isCheckpointError(error) && error.code === 'conflict') {
    return new CheckpointError('conflict', runId, error.message, { trace, cause: error });
  }
  const why = failureMessage(error);
  return new CheckpointError(
    'save_failed',
    runId,
    `loopchart: saving checkpoint #${seq} of run '${runId}' failed (${why}); the run stopped before its next step. error.trace holds the ${trace.length} trace entries so far`,
    { trace, cause: error },
  );
}
