import { clarificationRequest, type LoopConfig } from 'loopchart';

/** A loop that pauses for a review before it proceeds: `review.continue` finishes it. */
export const draftLoop: LoopConfig<string, string> = {
  id: 'draft',
  attempt: ({ input }) => `draft of ${input}`,
  validate: () => ({ valid: true as const }),
  review: { beforeProceed: true },
};

/** A loop whose attempt asks which year, with two options, and then uses the answer. */
export const askLoop: LoopConfig<string, string> = {
  id: 'ask',
  attempt: ({ answers }) =>
    answers.length === 0
      ? clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] })
      : `report for ${String(answers[0]?.answer)}`,
  validate: () => ({ valid: true as const }),
};
