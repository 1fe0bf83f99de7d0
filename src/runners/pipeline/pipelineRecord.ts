import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord, RunStatus } from '../../stores/kit/CheckpointStore.js';
import type { RunClaim } from '../../stores/kit/runClaim.js';
import type { PipelineContext } from './pipelineContext.js';
import { pipelineRecordProblem } from './pipelineRecordProblem.js';
import type { ResolvedPlan } from './resolvePlan.js';

export const PIPELINE_RECORD_FORMAT = 'loopchart.pipeline';
export const PIPELINE_RECORD_VERSION = 1;

/**
 * What a pipeline persists (JSON): its context (stage reports with the results of finished stages,
 * cross-check verdicts, the pause), not its children. A stage still running when the record was
 * saved runs again from its start on resume if its loop is fully idempotent; otherwise it is
 * failed as `unknown_outcome` and the pipeline pauses for a person to decide.
 */
export interface PipelineRecord {
  format: typeof PIPELINE_RECORD_FORMAT;
  version: typeof PIPELINE_RECORD_VERSION;
  status: 'running' | 'paused' | 'completed' | 'aborted';
  /** The pipeline machine's state, e.g. `layer2.awaitingReview`. */
  state: string;
  context: PipelineContext;
  /** JSON the plan was built from (e.g. a model's plan, by `loopchart/agent`), kept on every save. */
  planSource?: unknown;
  /** The writer driving a running pipeline, and until when (SPEC §6, one writer per run). */
  claim?: RunClaim;
}

export function toRecord(
  status: PipelineRecord['status'],
  state: string,
  context: PipelineContext,
  planSource?: unknown,
): PipelineRecord {
  return {
    format: PIPELINE_RECORD_FORMAT,
    version: PIPELINE_RECORD_VERSION,
    status,
    state,
    context,
    ...(planSource === undefined ? {} : { planSource }),
  };
}

/** The store row of a record: the pipeline's id as `machineId`, its JSON as `data`. */
export function toStoreRecord(
  plan: ResolvedPlan,
  runId: string,
  seq: number,
  record: PipelineRecord,
): CheckpointRecord {
  const status: RunStatus =
    record.status === 'completed' || record.status === 'aborted' ? 'done' : record.status;
  return {
    runId,
    seq,
    status,
    state: record.state,
    machineId: plan.id,
    updatedAt: Date.now(),
    data: JSON.stringify(record),
  };
}

/**
 * Checks that `value` is a record of this plan. Throws `CheckpointError`: `corrupt` (not a
 * pipeline record), `unknown_version`, or `other_machine` (saved by a plan with other stages,
 * dependencies or checkpoints).
 */
export function readRecord(plan: ResolvedPlan, value: unknown, runId = ''): PipelineRecord {
  const record = checkedRecord(value, runId);
  if (record.context.planKey !== plan.key) {
    throw refusal(
      'other_machine',
      runId,
      `the pipeline record was saved by another plan (its stages, dependencies or checkpoints differ from pipeline '${plan.id}')`,
    );
  }
  const missing = Object.keys(plan.stages).find((id) => !(id in record.context.stages));
  if (missing !== undefined) {
    throw refusal('corrupt', runId, `the pipeline record is corrupt: it has no stage '${missing}'`);
  }
  return record;
}

/**
 * The valid pipeline record a store row holds, whatever plan wrote it. Throws `CheckpointError`
 * `corrupt` (not JSON, not a pipeline record, or one of the wrong shape) or `unknown_version`.
 * @example const record = decodePipelineRecord(await store.load('q3'));
 */
export function decodePipelineRecord(stored: CheckpointRecord): PipelineRecord {
  return checkedRecord(parsedData(stored), stored.runId);
}

function checkedRecord(value: unknown, runId: string): PipelineRecord {
  const record = value as Partial<PipelineRecord> | null;
  if (typeof record !== 'object' || record === null || record.format !== PIPELINE_RECORD_FORMAT) {
    throw refusal('corrupt', runId, 'this is not a pipeline record');
  }
  if (record.version !== PIPELINE_RECORD_VERSION) {
    throw refusal(
      'unknown_version',
      runId,
      `pipeline record version ${String(record.version)} is not supported (this loopchart reads ${PIPELINE_RECORD_VERSION})`,
    );
  }
  const problem = pipelineRecordProblem(record);
  if (problem) throw refusal('corrupt', runId, `the pipeline record is corrupt: ${problem}`);
  return record as PipelineRecord;
}

function refusal(
  code: 'corrupt' | 'unknown_version' | 'other_machine',
  runId: string,
  why: string,
) {
  return new CheckpointError(code, runId, `loopchart: ${runId ? `run '${runId}': ` : ''}${why}`);
}

/**
 * The pipeline record a store row's data holds (runPipeline saves to the same stores as loops), or
 * `undefined` for anything else: a loop's checkpoint, or data that is not JSON. Never throws.
 * @example if (pipelineRecordOf(row.data)) showPipeline(row); else showLoop(row);
 */
export function pipelineRecordOf(data: string): PipelineRecord | undefined {
  try {
    const value = JSON.parse(data) as Partial<PipelineRecord> | null;
    return value?.format === PIPELINE_RECORD_FORMAT ? (value as PipelineRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a store row's data; a row that is not JSON is refused as `corrupt`. */
export function readStoreRecord(plan: ResolvedPlan, stored: CheckpointRecord): PipelineRecord {
  return readRecord(plan, parsedData(stored), stored.runId);
}

function parsedData(stored: CheckpointRecord): unknown {
  try {
    return JSON.parse(stored.data);
  } catch {
    throw refusal('corrupt', stored.runId, 'its data is not JSON');
  }
}
