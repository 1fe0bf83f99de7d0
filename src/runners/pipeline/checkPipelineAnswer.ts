import type { PendingRequest } from '../../core/chart/loopContext.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import { checkAnswer } from '../loop/checkAnswer.js';
import type { PipelineEvent } from './pipelineEvents.js';
import type { ResolvedPlan } from './resolvePlan.js';
import { STAGE_ANSWER_TYPES } from './stagePause.js';

const PIPELINE_TYPES = ['pipeline.continue', 'pipeline.retry', 'pipeline.modify', 'pipeline.abort'];

/**
 * Checks an answer to a paused pipeline before it touches the run (SPEC §6): an object with a
 * known type; `pipeline.*` events with the fields they take; a stage's loop answer checked like
 * any loop answer (shape, the question's options, the stage loop's `answers` schemas), for a
 * stage of the plan, its question read with `pendingOf`, a schema check within the stage loop's
 * `deadlineMs` and the grace. Throws `CheckpointError` `invalid_answer`; returns the event rebuilt.
 * @example const event = await checkPipelineAnswer(plan, 'q3', { type: 'review.continue', stage: 'draft' }, pendingOf);
 */
export async function checkPipelineAnswer(
  plan: ResolvedPlan,
  runId: string,
  answer: unknown,
  pendingOf: (stage: string) => PendingRequest | undefined,
): Promise<PipelineEvent> {
  const refuse = (why: string) =>
    new CheckpointError(
      'invalid_answer',
      runId,
      `loopchart: answer to pipeline run '${runId}' refused: ${why}`,
    );
  let type: unknown;
  let stage: unknown;
  let fields: Record<string, unknown>;
  try {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw 0;
    fields = { ...(answer as Record<string, unknown>) };
    ({ type, stage } = fields);
  } catch {
    throw refuse('an answer must be an object with a type');
  }
  if (stage !== undefined && (typeof stage !== 'string' || !plan.stages[stage])) {
    throw refuse(`${describeValue(stage, 60)} is not a stage of pipeline '${plan.id}'`);
  }
  if ((STAGE_ANSWER_TYPES as readonly unknown[]).includes(type)) {
    if (stage === undefined) throw refuse(`${String(type)} needs the stage it answers`);
    const { stage: _, ...loopAnswer } = fields;
    const pending = pendingOf(stage as string);
    const answered = plan.stages[stage as string];
    // a schema that never answers is bounded by the stage loop's whole time (SPEC §14)
    const event = await checkAnswer(
      runId,
      loopAnswer,
      pending,
      answered?.plan.config.answers,
      answered?.deadlineMs ?? null,
    );
    return { ...event, stage } as PipelineEvent;
  }
  switch (type) {
    case 'pipeline.continue':
      return { type };
    case 'pipeline.retry':
      return stage === undefined ? { type } : { type, stage: stage as string };
    case 'pipeline.abort': {
      const { reason } = fields;
      if (reason !== undefined && typeof reason !== 'string')
        throw refuse('pipeline.abort’s reason must be a string');
      return reason === undefined ? { type } : { type, reason };
    }
    case 'pipeline.modify':
      if (stage === undefined || !('input' in fields)) {
        throw refuse('pipeline.modify needs a stage and its new input');
      }
      return { type, stage: stage as string, input: fields.input };
    default:
      throw refuse(
        `${describeValue(type, 60)} is not an answer type (${[...PIPELINE_TYPES, ...STAGE_ANSWER_TYPES].join(', ')})`,
      );
  }
}
