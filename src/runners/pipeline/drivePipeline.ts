import { type ActorOptions, type AnyActorLogic, createActor } from 'xstate';
import { GRACE_MS } from '../../core/chart/deadline.js';
import { StepGate } from '../../core/chart/stepGate.js';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import {
  CheckpointError,
  failureMessage,
  isCheckpointError,
  storeTimeout,
} from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { whileDrivenHere } from '../../stores/kit/drivenHere.js';
import { keepClaim, releaseClaim } from '../../stores/kit/runClaim.js';
import { pipelineMachineOf } from './createPipelineMachine.js';
import {
  initialPipelineContext,
  type PipelineMachineInput,
  type PipelinePause,
  type StageReport,
} from './pipelineContext.js';
import { recordAbort } from './pipelineDecisions.js';
import type { PipelineEmitted, PipelineEvent } from './pipelineEvents.js';
import { buildPipelineOutcome, type PipelineOutcome } from './pipelineOutcome.js';
import type { StageId, StageResults } from './pipelinePlan.js';
import { type PipelineRecord, toRecord, toStoreRecord } from './pipelineRecord.js';
import { resultsOf } from './pipelineUpdates.js';
import type { ResolvedPlan } from './resolvePlan.js';

/** A pipeline that stopped to wait for a person: `resumePipeline` continues it. */
export interface PipelinePaused<R extends Record<string, unknown> = Record<string, unknown>> {
  status: 'paused';
  /** The run's id in the store, when it runs with one. */
  runId?: string;
  /**
   * With a store: the checkpoint number that holds this pause. Pass it as `resumePipeline`'s
   * `ifSeq` so the answer applies to this pause only (a double-click, a stale tab).
   */
  seq?: number;
  pause: PipelinePause<R>;
  stages: Record<StageId<R>, StageReport>;
  results: StageResults<R>;
  /** Everything needed to continue (JSON): `resumePipeline(plan, { record, event })`. */
  record: PipelineRecord;
}

/** What `runPipeline` and `resumePipeline` resolve to: the end, or a pause. */
export type PipelineRunResult<R extends Record<string, unknown> = Record<string, unknown>> =
  | PipelineOutcome<R>
  | PipelinePaused<R>;

export interface Drive {
  plan: ResolvedPlan;
  input: PipelineMachineInput;
  event?: PipelineEvent | undefined;
  signal?: AbortSignal | undefined;
  inspect?: ActorOptions<AnyActorLogic>['inspect'];
  onEvent?: ((event: PipelineEmitted) => void) | undefined;
  /** JSON stored with every record (`PipelineRecord.planSource`). */
  planSource?: unknown;
  /** The record was paused: its pause is entered again on start, and not announced again. */
  replaysPause?: boolean;
  /** Save a record after every change; `seq` is the stored one this run continues from. */
  store?:
    | {
        store: CheckpointStore;
        runId: string;
        seq: number;
        saved?: string;
        /** This drive's claim on the run, carried by every working record and renewed in time. */
        claim: { owner: string; ttlMs: number };
      }
    | undefined;
}

/**
 * Runs a pipeline actor until it ends or pauses, saving its record after every change, one save
 * at a time. Every step of every stage waits for the save before it, so a failed save stops the
 * pipeline (running stages are cancelled through their signals) and the promise rejects with
 * `CheckpointError` `save_failed` (or `conflict` when another process writes the run).
 */
export function drivePipeline(drive: Drive): Promise<PipelineRunResult> {
  const { plan, store, signal } = drive;
  const gate = new StepGate();
  const machine = pipelineMachineOf(plan, store ? gate : undefined);
  const actor = createActor(machine, {
    input: drive.input,
    ...(drive.inspect ? { inspect: drive.inspect } : {}),
  });
  let replaying = drive.replaysPause === true;
  const { onEvent } = drive;
  if (onEvent)
    actor.on('*', (event) => !(replaying && event.type === 'pipeline.paused') && onEvent(event));
  const runId = store?.runId ?? '';
  if (signal?.aborted) {
    // as runLoop: a pipeline aborted before it began runs no stage and saves nothing
    const context = initialPipelineContext(plan, drive.input);
    return Promise.resolve(
      buildPipelineOutcome('aborted', { ...context, ...recordAbort(context, reasonOf(signal)) }),
    );
  }

  const run = new Promise<PipelineRunResult>((resolve, reject) => {
    let seq = store?.seq ?? 0;
    let lastSaved = store?.saved;
    let saves: Promise<unknown> = Promise.resolve();
    let settled = false;
    let savedAt = Number.NEGATIVE_INFINITY;
    const pending: number[] = []; // when each save not yet acknowledged was issued
    let acknowledged: CheckpointRecord | undefined;
    const stopRenewing = store
      ? keepClaim(store.claim.ttlMs, () => {
          if (monotonicClock.now() - savedAt >= (store.claim.ttlMs as number) / 3) observe();
        })
      : () => {};
    const abort = () => actor.send({ type: 'pipeline.abort', reason: reasonOf(signal) });
    const stop = () => {
      settled = true;
      stopRenewing();
      signal?.removeEventListener('abort', abort);
      actor.stop();
    };
    const fail = (error: unknown) => {
      if (settled) return;
      stop();
      reject(error);
    };
    const observe = () => {
      if (settled) return;
      const snapshot = actor.getSnapshot();
      const done = snapshot.status === 'done';
      const paused = !done && snapshot.hasTag('waitsForHuman');
      const status = done
        ? (snapshot.output?.status ?? 'completed')
        : paused
          ? 'paused'
          : 'running';
      const record = toRecord(status, stateOf(snapshot.value), snapshot.context, drive.planSource);
      if (store) {
        const claim = { owner: store.claim.owner, expiresAt: Date.now() + store.claim.ttlMs };
        const row = toStoreRecord(
          plan,
          runId,
          seq + 1,
          status === 'running' ? { ...record, claim } : record,
        );
        if (row.data !== lastSaved) {
          savedAt = monotonicClock.now();
          pending.push(savedAt);
          lastSaved = row.data;
          seq += 1;
          saves = saves.then(() =>
            store.store.save(row).then(
              () => {
                pending.shift();
                acknowledged = row;
              },
              async (error) => {
                const failure = saveError(runId, row.seq, error);
                const running = !settled;
                stop();
                await releaseClaim(store.store, acknowledged, row.seq);
                if (running) reject(failure);
                throw failure;
              },
            ),
          );
          saves.catch(ignore);
          gate.hold(saves);
        }
      }
      if (!done && !paused) return;
      stop();
      const result = resultOf(record, store?.runId, seq);
      const unanswered = () => `the save of record #${seq - pending.length + 1}`;
      awaitSaves(saves, pending[0], plan.storeWaitMs, (ms) =>
        storeError(runId, unanswered(), ms),
      ).then(() => resolve(result), reject);
    };
    actor.subscribe({ error: fail });
    actor.start();
    replaying = false;
    if (drive.event) {
      if (!actor.getSnapshot().can(drive.event)) {
        fail(notApplicable(runId, drive.event, actor.getSnapshot().context.pause));
        return;
      }
      actor.send(drive.event);
    }
    actor.subscribe(observe);
    observe();
    if (settled) return; // the answer ended it: nothing left to abort
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
  return store ? whileDrivenHere(store.store, runId, run) : run;
}

/**
 * Waits for the saves still pending as the pipeline ends or pauses, but no longer than its
 * store wait (the longest stage deadline) from when the oldest was issued, plus the grace a
 * save of the stop itself needs (SPEC §14). Rejects with `store_timeout` past that.
 */
function awaitSaves(
  saves: Promise<unknown>,
  oldest: number | undefined,
  waitMs: number | null,
  timeout: (waitMs: number) => CheckpointError,
): Promise<unknown> {
  if (oldest === undefined || waitMs === null) return saves;
  const ms = oldest + waitMs + GRACE_MS - monotonicClock.now();
  return withTimeLimit(() => saves, { ms, timeout: () => timeout(waitMs) });
}

function storeError(runId: string, what: string, waitMs: number): CheckpointError {
  return storeTimeout(
    runId,
    what,
    waitMs,
    "the longest deadlineMs of the pipeline's stage loops, whose steps wait on its saves",
  );
}

/** The result a record stands for: the outcome of a finished pipeline, or its pause (at `seq` in a store). */
export function resultOf(record: PipelineRecord, runId?: string, seq?: number): PipelineRunResult {
  const { context, status } = record;
  if (status === 'completed' || status === 'aborted') return buildPipelineOutcome(status, context);
  return {
    status: 'paused',
    ...(runId ? { runId } : {}),
    ...(runId && seq !== undefined ? { seq } : {}),
    pause: context.pause as PipelinePause,
    stages: context.stages,
    results: resultsOf(context, Object.keys(context.stages)),
    record,
  };
}

/** The error for an answer that does not fit where the pipeline is. */
export function notApplicable(
  runId: string,
  event: PipelineEvent,
  pause: PipelinePause | undefined,
): CheckpointError {
  const stage = 'stage' in event && event.stage !== undefined ? ` for stage '${event.stage}'` : '';
  const where = pause
    ? `does not apply to this pause (layer ${pause.layer}, ${pause.reason}: ${pause.stages.join(', ')}); a stage must belong to the paused layer`
    : 'does not apply: the pipeline is not paused';
  return new CheckpointError('not_waiting', runId, `loopchart: ${event.type}${stage} ${where}`);
}

function saveError(runId: string, seq: number, error: unknown): CheckpointError {
  if (isCheckpointError(error) && error.code === 'conflict') return error;
  const why = failureMessage(error);
  return new CheckpointError(
    'save_failed',
    runId,
    `loopchart: saving record #${seq} of pipeline run '${runId}' failed (${why}); the pipeline stopped and its running stages were cancelled`,
    { cause: error },
  );
}

function stateOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const [[layer, sub] = []] = Object.entries(value as Record<string, unknown>);
  return `${layer}.${String(sub)}`;
}

function reasonOf(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message || reason.name;
  return 'the caller aborted the pipeline';
}

const ignore = () => {};
