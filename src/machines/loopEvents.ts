/** The events a running loop of input `I` and candidate `C` accepts from outside. */
export type LoopEvent<I = unknown, C = unknown> =
  | { type: 'loop.abort'; reason?: string }
  | { type: 'review.continue' }
  | { type: 'review.modify'; input?: I; candidate?: C }
  | { type: 'review.retry'; feedback?: string }
  | { type: 'review.abort'; reason?: string }
  | { type: 'clarification.answer'; answer: unknown };
