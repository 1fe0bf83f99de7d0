import type { ANSWERS } from './combination.js';

/** The event for a scripted answer to a pause (`bad` is malformed on purpose). */
export function answerEvent(
  answer: (typeof ANSWERS)[number],
  pending: { kind: string } | undefined,
): Record<string, unknown> {
  if (answer === 'bad') return { type: 'review.modify' };
  if (pending?.kind === 'clarification') {
    return answer === 'abort'
      ? { type: 'loop.abort', reason: 'the person left' }
      : { type: 'clarification.answer', answer: '2025' };
  }
  switch (answer) {
    case 'continue':
      return { type: 'review.continue' };
    case 'modifyCandidate':
      return { type: 'review.modify', candidate: { edited: true } };
    case 'modifyInput':
      return { type: 'review.modify', input: 'edited input' };
    case 'retry':
      return { type: 'review.retry', feedback: 'shorter' };
    default:
      return { type: 'review.abort', reason: 'the reviewer stopped it' };
  }
}

/** The `n`th answer (0-based) of a combination; after 12 the person gives up and aborts. */
export function nthAnswer(answers: readonly (typeof ANSWERS)[number][], n: number) {
  const answer = answers[Math.min(n, answers.length - 1)] ?? 'continue';
  return n >= 12 ? ('abort' as const) : answer;
}
