import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { DbosRunError } from './DbosRunError.js';

const REVIEW = ['review.continue', 'review.modify', 'review.retry', 'review.abort'];

/**
 * Checks an answer against the question a paused loop run publishes, before anything is sent:
 * an answer that is not an event, of the wrong kind, a `review.modify` with neither `input` nor
 * `candidate`, or an answer outside the question's `options` throws `DbosRunError` `refused`.
 */
export function checkLoopAnswer(runId: string, event: unknown, pending: PendingRequest): LoopEvent {
  const refuse = (why: string) =>
    new DbosRunError('refused', runId, `loopchart: run '${runId}' refused the answer: ${why}`);
  if (typeof event !== 'object' || event === null)
    throw refuse(`${describeValue(event)} is not an event`);
  const { type } = event as { type?: unknown };
  const expected = pending.kind === 'review' ? REVIEW : ['clarification.answer'];
  if (typeof type !== 'string' || !expected.includes(type)) {
    throw refuse(`it waits for ${expected.join(', ')}, not ${describeValue(type)}`);
  }
  const fields = event as Record<string, unknown>;
  if (type === 'review.modify' && fields.input === undefined && fields.candidate === undefined) {
    throw refuse('review.modify needs an input or a candidate');
  }
  if (type === 'clarification.answer' && pending.kind === 'clarification' && pending.options) {
    if (!pending.options.includes(fields.answer as string)) {
      throw refuse(`the answer must be one of ${pending.options.join(', ')}`);
    }
  }
  return JSON.parse(JSON.stringify(event)) as LoopEvent;
}
