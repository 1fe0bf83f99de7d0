/** The events a running loop accepts from outside. */
export type LoopEvent =
  | { type: 'loop.abort'; reason?: string }
  | { type: 'review.continue' }
  | { type: 'review.modify'; input?: unknown; candidate?: unknown }
  | { type: 'review.retry'; feedback?: string }
  | { type: 'review.abort'; reason?: string }
  | { type: 'clarification.answer'; answer: unknown };
