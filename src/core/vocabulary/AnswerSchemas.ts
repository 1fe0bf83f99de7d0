import type { StandardSchemaV1 } from './standardSchema.js';

/**
 * Schemas a paused run's answers must pass (any Standard Schema, e.g. zod 4): a reviewer's
 * `review.modify` `input` or `candidate`, a `clarification.answer`'s `answer`. The value a schema
 * returns (transforms included) is what the loop receives.
 */
export interface AnswerSchemas<I = unknown, C = unknown> {
  input?: StandardSchemaV1<unknown, I>;
  candidate?: StandardSchemaV1<unknown, C>;
  clarification?: StandardSchemaV1;
}
