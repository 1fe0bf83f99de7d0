import type { LoopEvent } from '../../core/chart/loopEvents.js';
import type { Agent } from '../../runners/agent/createAgent.js';
import { resumeAgent } from '../../runners/agent/runAgent.js';
import { type ShapeChoiceAnswer, shapeChoiceOf } from '../../runners/agent/shapeChoice.js';
import { resumeLoop } from '../../runners/loop/resumeLoop.js';
import type { ReconcileAnswer } from '../../runners/operate/reconcileAnswer.js';
import { reconcileRun } from '../../runners/operate/reconcileRun.js';
import type { PipelineEvent } from '../../runners/pipeline/pipelineEvents.js';
import type { AnyLoopConfig, PipelinePlan } from '../../runners/pipeline/pipelinePlan.js';
import { pipelineRecordOf } from '../../runners/pipeline/pipelineRecord.js';
import { resumePipeline } from '../../runners/pipeline/runPipeline.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { type ApiReply, refuse, replyForError } from './apiReply.js';
import type { AnswerRequest, AnswerResponse } from './apiSchemas.js';
import { observedStore } from './observedStore.js';
import { runDetail } from './runDetail.js';

/**
 * The loops, pipelines and agents a server may drive, by machine id (a loop's `id`, a plan's
 * `id`, an agent's `config.id`).
 */
export interface Registered {
  loops: Readonly<Record<string, AnyLoopConfig>>;
  pipelines: Readonly<Record<string, PipelinePlan>>;
  /** An agent of any candidate type: what `createAgent` returns. */
  agents?: Readonly<Record<string, Pick<Agent, 'machine'> & { readonly config: { id: string } }>>;
}

/** Runs the server drives after an answer, so `close` can wait for them. */
export type Drives = Set<Promise<unknown>>;

/**
 * Applies a checked answer to a paused run through `resumeLoop` (`resumePipeline`, or for the
 * `outcome.*` answers to a parked run `reconcileRun`), pinned to
 * `ifSeq`. Replies once the first checkpoint after the answer is saved (the answer took), or
 * with `wait` once the run ends or pauses again; a refusal replies with its typed error and the
 * row unchanged. The run goes on in `drives` after the reply; `onError` hears how it failed.
 */
export async function answerRun(
  store: CheckpointStore,
  registered: Registered,
  runId: string,
  request: AnswerRequest,
  drives: Drives,
  onError: (runId: string, error: unknown) => void,
): Promise<ApiReply<AnswerResponse>> {
  const record = await store.load(runId);
  if (!record) return refuse(404, 'not_found', `no run '${runId}'`);
  if (record.seq !== request.ifSeq) {
    return refuse(
      409,
      'conflict',
      `run '${runId}' is at checkpoint #${record.seq}, not #${request.ifSeq} (ifSeq): it moved on since that pause; read it again`,
    );
  }
  if (record.status !== 'paused') {
    return refuse(
      409,
      'not_waiting',
      `run '${runId}' is ${record.status} (${record.state}), not paused for an answer`,
    );
  }
  const pipeline = pipelineRecordOf(record.data) !== undefined;
  const agent = shapeChoiceOf(record.data) !== undefined;
  const kind = agent ? 'agent' : pipeline ? 'pipeline' : 'loop';
  // own keys only: a run of loop 'constructor' must not find Object.prototype.constructor
  const table: Readonly<Record<string, object>> = agent
    ? (registered.agents ?? {})
    : pipeline
      ? registered.pipelines
      : registered.loops;
  const config = Object.hasOwn(table, record.machineId) ? table[record.machineId] : undefined;
  if (!config) {
    return refuse(
      422,
      'unknown_loop',
      `no ${kind} '${record.machineId}' is registered with this server, so it cannot drive run '${runId}' (register it under ${kind}s)`,
    );
  }
  if (agent !== (request.event.type === 'shape.choose')) {
    return refuse(
      409,
      'not_waiting',
      `run '${runId}' (${record.state}) does not take ${request.event.type}${agent ? ': it waits for shape.choose' : ''}`,
    );
  }
  let first: CheckpointRecord | undefined;
  let saved: () => void = () => {};
  const firstSave = new Promise<void>((resolve) => {
    saved = resolve;
  });
  // A restored run first saves its pause again: the answer took once a save shows it moved on.
  const view = observedStore(store, (next) => {
    if (first || (next.status === record.status && next.state === record.state)) return;
    first = next;
    saved();
  });
  const options = { store: view, runId, ifSeq: request.ifSeq };
  const run: Promise<unknown> = agent
    ? resumeAgent(config as Agent<unknown>, {
        ...options,
        event: request.event as ShapeChoiceAnswer,
      })
    : pipeline
      ? resumePipeline(config as PipelinePlan, {
          ...options,
          event: request.event as PipelineEvent,
        })
      : request.event.type.startsWith('outcome.')
        ? reconcileRun(config as AnyLoopConfig, {
            ...options,
            answer: request.event as ReconcileAnswer,
          })
        : resumeLoop(config as AnyLoopConfig, { ...options, event: request.event as LoopEvent });
  const settled = run.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  let handedOff = false; // replied 202: a later failure reaches no one but onError
  const drive = settled.then((result) => {
    drives.delete(drive);
    if (!result.ok && handedOff) onError(runId, result.error);
  });
  drives.add(drive);
  const early = await Promise.race([firstSave, settled]);
  if (early && !early.ok) return replyForError(early.error);
  const checkpoint = first ?? (await store.load(runId)) ?? record;
  const { data: _, ...summary } = checkpoint;
  handedOff = !request.wait;
  if (handedOff)
    return {
      ok: true,
      status: 202,
      body: { accepted: true, runId, checkpoint: summary, run: null },
    };
  const result = await settled;
  if (!result.ok) return replyForError(result.error);
  const latest = await store.load(runId);
  return {
    ok: true,
    status: 200,
    body: { accepted: true, runId, checkpoint: summary, run: latest ? runDetail(latest) : null },
  };
}
