import type { ActorOptions, AnyActorLogic } from 'xstate';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { drivenHere } from '../../stores/kit/drivenHere.js';
import { loadWithin } from '../../stores/kit/loadWithin.js';
import { checkClaim } from '../../stores/kit/runClaim.js';
import { checkIfSeq } from '../loop/checkIfSeq.js';
import { checkRunOptions } from '../loop/prepareLoop.js';
import { checkPipelineAnswer } from './checkPipelineAnswer.js';
import {
  type Drive,
  drivePipeline,
  notApplicable,
  type PipelineRunResult,
  resultOf,
} from './drivePipeline.js';
import type { PipelineEmitted, PipelineEvent } from './pipelineEvents.js';
import type { PipelinePlan } from './pipelinePlan.js';
import { type PipelineRecord, readRecord, readStoreRecord } from './pipelineRecord.js';
import { resolvePlan } from './resolvePlan.js';

/** Options of `runPipeline` / `resumePipeline`. */
export interface PipelineRunOptions {
  /** Aborting it ends the pipeline as `aborted` and aborts the running stages' step signals. */
  signal?: AbortSignal;
  /** An XState inspection observer; the stages appear as child actors `stage:<id>`. */
  inspect?: ActorOptions<AnyActorLogic>['inspect'];
  /** Called with every event the pipeline emits: stage started / finished, paused. */
  onEvent?: (event: PipelineEmitted) => void;
  /** Save the pipeline's record here after every change, so a pause survives a restart. */
  store?: CheckpointStore;
  /** Names the run in the store (default: a random UUID, returned with a pause). */
  runId?: string;
  /** JSON to keep in the run's record (`PipelineRecord.planSource`), e.g. the plan a model wrote; resume keeps it. */
  planSource?: unknown;
  /** How long this process's claim on the run holds without renewal (default 30 s), as for loops. */
  claimTtlMs?: number;
  /** A stable writer identity that takes its own runs over at once after a restart, as for loops. */
  claimOwner?: string;
}

/**
 * Runs a pipeline until it ends or pauses for a person. Rejects for a bad plan
 * (`LoopConfigError`) or a store problem (`CheckpointError`), never because a stage misbehaved.
 * @example const run = await runPipeline(plan, 'Which customers churned in Q3?', { store, runId: 'q3' });
 *          if (run.status === 'paused') console.log(run.pause.message);
 */
export async function runPipeline<
  PI,
  R extends Record<string, unknown>,
  SI extends Record<string, unknown>,
>(
  plan: PipelinePlan<PI, R, SI>,
  input: NoInfer<PI>,
  options: PipelineRunOptions = {},
): Promise<PipelineRunResult<R>> {
  return runPipelineAfter(plan, input, options, 0);
}

/** `runPipeline` numbering its records after `seq`, the stored row it replaces (0: none). */
export async function runPipelineAfter<
  PI,
  R extends Record<string, unknown>,
  SI extends Record<string, unknown>,
>(
  plan: PipelinePlan<PI, R, SI>,
  input: NoInfer<PI>,
  options: PipelineRunOptions,
  seq: number,
): Promise<PipelineRunResult<R>> {
  const resolved = resolvePlan(plan);
  const persisted = options.store ? { ...checkRunOptions(options, false), seq } : undefined;
  const result = drivePipeline({ ...options, plan: resolved, input: { input }, store: persisted });
  return result as Promise<PipelineRunResult<R>>;
}

/**
 * Where `resumePipeline` continues from, and the person's answer, typed by the plan's stage
 * candidates `R` and stage inputs `SI`.
 */
export interface ResumePipelineOptions<
  R extends Record<string, unknown> = Record<string, unknown>,
  SI extends Record<string, unknown> = Record<string, unknown>,
> extends PipelineRunOptions {
  /** The record of a pipeline run without a store (`paused.record`); or give `store` and `runId`. */
  record?: PipelineRecord;
  /** The answer to the pause; without one a paused pipeline stays paused. */
  event?: PipelineEvent<NoInfer<R>, NoInfer<SI>>;
  /**
   * With `store`: apply `event` only if the run is still at this checkpoint (its row's `seq`);
   * otherwise reject with `CheckpointError` `conflict` and run nothing, as `resumeLoop` does.
   * A paused result's `seq` is this number.
   */
  ifSeq?: number | undefined;
}

/**
 * Continues a pipeline from its record (in `store` under `runId`, or given as `record`) without
 * running finished stages again, applying `event`, the person's answer to the pause. Rejects with
 * `CheckpointError`: `not_found`, `corrupt`, `unknown_version`, `other_machine` (a record of
 * another plan), `not_waiting` (the event does not fit the pause), `save_failed`, `conflict`
 * (also when `ifSeq` no longer matches).
 * @example const next = await resumePipeline(plan, { store, runId: 'q3', event: { type: 'pipeline.retry', stage: 'join' } });
 */
export async function resumePipeline<
  PI,
  R extends Record<string, unknown>,
  SI extends Record<string, unknown>,
>(
  plan: PipelinePlan<PI, R, SI>,
  options: ResumePipelineOptions<R, SI>,
): Promise<PipelineRunResult<R>> {
  const resolved = resolvePlan(plan);
  let record: PipelineRecord;
  let persisted: Drive['store'];
  let self: string | undefined;
  if (options.record && !options.store) {
    if (options.ifSeq !== undefined) {
      throw new LoopConfigError(
        'loopchart: invalid run options\n  - ifSeq: needs a store and a runId (a record passed in has no checkpoint number)',
      );
    }
    record = readRecord(resolved, options.record);
  } else {
    const { store, runId, claim } = checkRunOptions(options, true);
    const stored = await loadWithin(
      store,
      runId,
      resolved.storeWaitMs,
      "the longest deadlineMs of the plan's stage loops",
    );
    if (!stored) {
      throw new CheckpointError('not_found', runId, `loopchart: no record for run '${runId}'`);
    }
    record = readStoreRecord(resolved, stored);
    checkIfSeq(runId, stored.seq, options.ifSeq);
    persisted = { store, runId, seq: stored.seq, saved: stored.data, claim };
    self = claim.self;
  }
  const runId = persisted?.runId;
  if (record.status === 'completed' || record.status === 'aborted') {
    if (options.event) throw notApplicable(runId ?? '', options.event, undefined);
    return resultOf(record, runId, persisted?.seq) as PipelineRunResult<R>;
  }
  if (record.status === 'paused' && options.event === undefined) {
    return resultOf(record, runId, persisted?.seq) as PipelineRunResult<R>;
  }
  const event =
    options.event === undefined
      ? undefined
      : await checkPipelineAnswer(
          resolved,
          runId ?? '',
          options.event,
          (stage) => record.context.stages[stage]?.paused?.pending,
        );
  if (record.status === 'running' && persisted)
    checkClaim(
      persisted.runId,
      record.claim,
      Date.now(),
      self,
      drivenHere(persisted.store, persisted.runId),
    );
  const result = drivePipeline({
    ...options,
    plan: resolved,
    input: { restore: record.context },
    event,
    planSource: options.planSource ?? record.planSource,
    store: persisted,
    replaysPause: record.status === 'paused',
  });
  return result as Promise<PipelineRunResult<R>>;
}
