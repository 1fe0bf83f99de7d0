/** The events a running loop of input `I` and candidate `C` accepts from outside. */
export type LoopEvent<I = unknown, C = unknown> =
  | { type: 'loop.abort'; reason?: string }
  | { type: 'review.continue' }
  | ReviewModify<I, C>
  | { type: 'review.retry'; feedback?: string }
  | { type: 'review.abort'; reason?: string }
  | { type: 'clarification.answer'; answer: unknown };

/**
 * A reviewer's edit: a new input (the loop attempts again from it) or a new candidate (the loop
 * validates it), exactly one of the two.
 */
export type ReviewModify<I = unknown, C = unknown> =
  | { type: 'review.modify'; input: I; candidate?: never }
  | { type: 'review.modify'; candidate: C; input?: never };
