import type { AnyLoopConfig } from '../../core/vocabulary/AnyLoopConfig.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { isCheckpointError } from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { decodeCheckpoint } from '../../stores/kit/checkpointFormat.js';
import { drivenHere } from '../../stores/kit/drivenHere.js';
import { claimHolder, type RunClaim } from '../../stores/kit/runClaim.js';
import { checkRunOptions, prepareLoop } from '../loop/prepareLoop.js';
import { resumeLoop } from '../loop/resumeLoop.js';
import type { PipelinePlan } from '../pipeline/pipelinePlan.js';
import { pipelineRecordOf } from '../pipeline/pipelineRecord.js';
import { resumePipeline } from '../pipeline/runPipeline.js';
import { unsafeInFlightStep } from './inFlightStep.js';
import { parkRun } from './parkRun.js';
import type { RecoveryReport } from './RecoveryReport.js';

/** The loops and pipelines whose runs `recoverRuns` may resume, keyed by the id runs are stored under. */
export interface RecoverableRuns {
  loops?: Readonly<Record<string, AnyLoopConfig>>;
  pipelines?: Readonly<Record<string, PipelinePlan>>;
}

/** Options of `recoverRuns`. */
export interface RecoverOptions {
  /**
   * This process's stable writer identity: runs whose claim it holds (it died and restarted) are
   * taken over at once; other writers' claims are waited out. Without it, only lapsed claims.
   */
  claimOwner?: string;
  /** The claim this process keeps on each run it resumes (default 30 s). */
  claimTtlMs?: number;
  /** How many runs are resumed at the same time (default 8, 1–1000). */
  concurrency?: number;
  /**
   * What becomes of a run whose non-idempotent step was in flight: `end` it `unknown_outcome`
   * (the default, as `resumeLoop` does), or `park` it for `reconcileRun`.
   */
  inFlight?: 'end' | 'park';
  signal?: AbortSignal;
}

/**
 * Finds the working runs of a store whose writer is gone (their claim lapsed, or is this
 * process's own `claimOwner`) and resumes each once, under the claim rules, `concurrency` at a
 * time, to its end or next pause. Reports which it resumed, parked, left to a live writer, could
 * not match to a loop or pipeline, and refused. Two processes recovering at once resume each
 * run once between them: the store's compare-and-set refuses the second.
 * @example const report = await recoverRuns(store, { loops: { invoice: invoiceLoop } }, { claimOwner: hostname() });
 */
export async function recoverRuns(
  store: CheckpointStore,
  runs: RecoverableRuns,
  options: RecoverOptions = {},
): Promise<RecoveryReport> {
  const { concurrency = 8, inFlight = 'end' } = options;
  checkRecoverOptions(store, options);
  const report: RecoveryReport = {
    resumed: [],
    parked: [],
    stillClaimed: [],
    unknownLoop: [],
    refused: [],
  };
  const working = await store.list({ status: 'running' });
  let next = 0;
  const worker = async () => {
    while (next < working.length && !options.signal?.aborted) {
      const { runId } = working[next++] as { runId: string };
      try {
        await recoverOne(store, runs, runId, { ...options, inFlight }, report);
      } catch (error) {
        await refused(store, runId, error, report);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, working.length) }, worker));
  return report;
}

async function recoverOne(
  store: CheckpointStore,
  runs: RecoverableRuns,
  runId: string,
  options: RecoverOptions & { inFlight: 'end' | 'park' },
  report: RecoveryReport,
): Promise<void> {
  const record = await store.load(runId);
  if (record?.status !== 'running') return; // finished or paused since it was listed
  const { machineId } = record;
  const claim = claimOf(record);
  if (claim && claimHolder(claim, Date.now(), options.claimOwner, drivenHere(store, runId))) {
    report.stillClaimed.push({ runId, owner: claim.owner, expiresAt: claim.expiresAt });
    return;
  }
  // pinned to the checkpoint read: a run another recoverer resumed meanwhile is theirs (conflict)
  const resume = {
    store,
    runId,
    ifSeq: record.seq,
    ...(options.claimOwner === undefined ? {} : { claimOwner: options.claimOwner }),
    ...(options.claimTtlMs === undefined ? {} : { claimTtlMs: options.claimTtlMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (pipelineRecordOf(record.data)) {
    const plan = ownEntry(runs.pipelines, machineId);
    if (!plan) return void report.unknownLoop.push({ runId, machineId });
    const result = await resumePipeline(plan, resume);
    report.resumed.push({ runId, machineId, status: result.status });
    return;
  }
  const config = ownEntry(runs.loops, machineId);
  if (!config) return void report.unknownLoop.push({ runId, machineId });
  if (options.inFlight === 'park') {
    const { expected, settings } = prepareLoop(config);
    const step = unsafeInFlightStep(decodeCheckpoint(record, expected), config, settings);
    if (step) {
      await parkRun(store, record, step);
      report.parked.push({ runId, machineId, step });
      return;
    }
  }
  const result = await resumeLoop(config, resume);
  report.resumed.push({ runId, machineId, status: result.status });
}

/** A refusal, or, for a `conflict`, the writer that got the run first. */
async function refused(
  store: CheckpointStore,
  runId: string,
  error: unknown,
  report: RecoveryReport,
): Promise<void> {
  if (isCheckpointError(error) && error.code === 'conflict') {
    const claim = claimOf(await store.load(runId).catch(() => undefined));
    report.stillClaimed.push({ runId, ...(claim ?? {}) });
    return;
  }
  const code = isCheckpointError(error) ? error.code : 'error';
  const message = error instanceof Error ? error.message : String(error);
  report.refused.push({ runId, code, message });
}

function claimOf(record: CheckpointRecord | undefined): RunClaim | undefined {
  if (!record) return undefined;
  try {
    const claim = (JSON.parse(record.data) as { claim?: Partial<RunClaim> } | null)?.claim;
    return typeof claim?.owner === 'string' && typeof claim.expiresAt === 'number'
      ? (claim as RunClaim)
      : undefined;
  } catch {
    return undefined;
  }
}

function ownEntry<T>(entries: Readonly<Record<string, T>> | undefined, id: string): T | undefined {
  return entries && Object.hasOwn(entries, id) ? entries[id] : undefined;
}

function checkRecoverOptions(store: CheckpointStore, options: RecoverOptions): void {
  checkRunOptions({ ...options, store }, false);
  const { concurrency, inFlight } = options;
  const problems: string[] = [];
  if (
    concurrency !== undefined &&
    !(Number.isSafeInteger(concurrency) && concurrency >= 1 && concurrency <= 1000)
  ) {
    problems.push('  - concurrency: must be an integer from 1 to 1000');
  }
  if (inFlight !== undefined && inFlight !== 'end' && inFlight !== 'park') {
    problems.push("  - inFlight: must be 'end' or 'park'");
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid recover options\n${problems.join('\n')}`);
  }
}
