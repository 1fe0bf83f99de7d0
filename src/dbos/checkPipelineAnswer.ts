import { describeValue } from '../describeValue.js';
import type { PipelineEvent } from '../pipeline/pipelineEvents.js';
import type { ResolvedPlan } from '../pipeline/resolvePlan.js';
import { DbosRunError } from './DbosRunError.js';

const TYPES = ['pipeline.continue', 'pipeline.retry', 'pipeline.modify', 'pipeline.abort'];

/**
 * Checks an answer to a paused pipeline before anything is sent: not an event, an unknown type, an
 * unknown `stage`, or a `pipeline.modify` without a stage throws `DbosRunError` `refused`. (Whether
 * the stage belongs to the paused layer the workflow checks; an answer that does not fit is dropped
 * there and the pipeline keeps waiting.)
 */
export function checkPipelineAnswer(
  runId: string,
  event: unknown,
  plan: ResolvedPlan,
): PipelineEvent {
  const refuse = (why: string) =>
    new DbosRunError(
      'refused',
      runId,
      `loopchart: pipeline run '${runId}' refused the answer: ${why}`,
    );
  if (typeof event !== 'object' || event === null)
    throw refuse(`${describeValue(event)} is not an event`);
  const { type, stage } = event as { type?: unknown; stage?: unknown };
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    throw refuse(`it takes ${TYPES.join(', ')}, not ${describeValue(type)}`);
  }
  if (type === 'pipeline.modify' && typeof stage !== 'string')
    throw refuse('pipeline.modify needs a stage');
  if (stage !== undefined && (typeof stage !== 'string' || !plan.stages[stage])) {
    throw refuse(`${describeValue(stage)} is not a stage of this pipeline`);
  }
  return JSON.parse(JSON.stringify(event)) as PipelineEvent;
}
