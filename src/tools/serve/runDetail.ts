import type { PendingRequest } from '../../core/chart/loopContext.js';
import { loopView } from '../../core/chart/loopView.js';
import { shapeChoiceOf } from '../../runners/agent/shapeChoice.js';
import type { PipelineContext } from '../../runners/pipeline/pipelineContext.js';
import {
  decodePipelineRecord,
  type PipelineRecord,
  pipelineRecordOf,
} from '../../runners/pipeline/pipelineRecord.js';
import { isCheckpointError } from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord } from '../../stores/kit/CheckpointStore.js';
import { decodeCheckpoint } from '../../stores/kit/checkpointFormat.js';
import type { AgentRunDetail, LoopRunDetail, RunDetail } from './runSchemas.js';

const REVIEW_EVENTS = ['review.continue', 'review.modify', 'review.retry', 'review.abort'];
const PARKED_EVENTS = ['outcome.happened', 'outcome.did_not_happen', 'outcome.give_up'];
const PIPELINE_EVENTS = [
  'pipeline.continue',
  'pipeline.retry',
  'pipeline.modify',
  'pipeline.abort',
];

/**
 * What the run API shows of a stored run: a loop's pending question, outcome, `LoopError` and
 * trace, a pipeline's stages and pause, an agent's owner choice brief, or why the record cannot
 * be read. Never throws.
 * @example const detail = runDetail(await store.load('invoice-42'));
 */
export function runDetail(record: CheckpointRecord): RunDetail {
  const { data: _, ...row } = record;
  try {
    const choice = shapeChoiceOf(record.data);
    if (choice) {
      const waiting = row.status === 'paused';
      // a ShapeChoiceBrief is the schema's object (interfaces carry no index signature)
      const brief = choice as unknown as AgentRunDetail['choice'];
      return { kind: 'agent', ...row, answerWith: waiting ? ['shape.choose'] : [], choice: brief };
    }
    if (pipelineRecordOf(record.data)) return pipelineDetail(row, decodePipelineRecord(record));
    const checkpoint = decodeCheckpoint(record);
    const view = loopView(checkpoint);
    const output = checkpoint.snapshot.output as Record<string, unknown> | undefined;
    const { trace: _trace, error, ...outcome } = output ?? {};
    const pending = row.status === 'paused' ? (checkpoint.pending ?? null) : null;
    return {
      kind: 'loop',
      ...row,
      pending,
      answerWith: checkpoint.parked
        ? PARKED_EVENTS
        : pending
          ? [
              ...(pending.kind === 'clarification' ? ['clarification.answer'] : REVIEW_EVENTS),
              'loop.abort',
            ]
          : [],
      ...(checkpoint.parked ? { parked: checkpoint.parked } : {}),
      outcome: output ? (outcome as LoopRunDetail['outcome']) : null,
      error: (error ?? null) as LoopRunDetail['error'],
      progress: {
        iterations: view?.iterations ?? 0,
        attempts: view?.attempts ?? 0,
        cost: view?.cost ?? 0,
      },
      trace: checkpoint.trace,
    };
  } catch (error) {
    const code = isCheckpointError(error) ? error.code : 'corrupt';
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'unreadable', ...row, problem: { code, message } };
  }
}

function pipelineDetail(row: Omit<CheckpointRecord, 'data'>, record: PipelineRecord): RunDetail {
  const context = (record.context ?? {}) as Partial<PipelineContext>;
  const stages = Object.fromEntries(
    Object.entries(context.stages ?? {}).map(([id, stage]) => [
      id,
      {
        status: stage.status,
        layer: stage.layer,
        runs: stage.runs,
        iterations: stage.iterations,
        attempts: stage.attempts,
        cost: stage.cost,
        ...(stage.loopStatus === undefined ? {} : { loopStatus: stage.loopStatus }),
        ...(stage.note === undefined ? {} : { note: stage.note }),
      },
    ]),
  );
  const paused = record.status === 'paused' && context.pause;
  return {
    kind: 'pipeline',
    ...row,
    pipelineStatus: record.status,
    pause: paused ? (context.pause ?? null) : null,
    answerWith: !paused
      ? []
      : paused.reason === 'stage_paused'
        ? stageAnswers(paused)
        : PIPELINE_EVENTS,
    stages,
  };
}

/** A pipeline paused inside its stages takes their loops' answers (with `stage`) and `pipeline.abort`. */
function stageAnswers(pause: { pending: Record<string, PendingRequest> }): string[] {
  const kinds = new Set(Object.values(pause.pending).map((pending) => pending.kind));
  return [
    ...(kinds.has('review') ? REVIEW_EVENTS : []),
    ...(kinds.has('clarification') ? ['clarification.answer'] : []),
    'pipeline.abort',
  ];
}
