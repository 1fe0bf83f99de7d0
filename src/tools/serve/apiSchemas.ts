import { z } from 'zod';
import { SHAPES } from '../../runners/agent/shapes.js';
import { RUN_STATUSES } from '../../stores/kit/CheckpointStore.js';
import { runDetailSchema, runSummarySchema } from './runSchemas.js';

const text = z.string().max(10_000);

/** The filters of a run list: what `GET /api/runs` and the `list_runs` tool take. */
export const listQuerySchema = z.strictObject({
  status: z.enum(RUN_STATUSES).optional().describe('Only runs in this status.'),
  loop: z.string().min(1).max(200).optional().describe('Only runs of this loop (machine id).'),
  since: z
    .string()
    .max(40)
    .optional()
    .describe('Only runs saved since: a duration back from now (30m, 24h, 7d) or an ISO date.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .describe('Runs per page, 1 to 500 (default 50).'),
  cursor: z.string().max(400).optional().describe('The `next` of the previous page.'),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** What `GET /api/health` and the `loop_health` tool take. */
export const healthQuerySchema = z.strictObject({
  loop: z.string().min(1).max(200).optional().describe('Only this loop (machine id).'),
  since: z
    .string()
    .max(40)
    .optional()
    .describe('Only runs saved since (30m, 24h, 7d, an ISO date).'),
  until: z.string().max(40).optional().describe('Only runs saved before (same forms as since).'),
});
export type HealthQuery = z.output<typeof healthQuerySchema>;

const stage = { stage: z.string().min(1).max(200).optional() };

/**
 * The events a paused run takes, checked for shape before they reach `resumeLoop` or
 * `resumePipeline` (which check them against the pause itself), or, the `outcome.*` answers to a
 * parked run, `reconcileRun`; `shape.choose`, an agent's brief, `resumeAgent`. `stage` addresses
 * a stage's loop inside a pipeline.
 */
export const answerEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('review.continue'), ...stage }),
  z
    .strictObject({
      type: z.literal('review.modify'),
      input: z.unknown().optional(),
      candidate: z.unknown().optional(),
      ...stage,
    })
    .refine((event) => event.input !== undefined || event.candidate !== undefined, {
      message: 'review.modify needs an input or a candidate',
    }),
  z.strictObject({ type: z.literal('review.retry'), feedback: text.optional(), ...stage }),
  z.strictObject({ type: z.literal('review.abort'), reason: text.optional(), ...stage }),
  z
    .strictObject({ type: z.literal('clarification.answer'), answer: z.unknown(), ...stage })
    .refine((event) => event.answer !== undefined, {
      message: 'clarification.answer needs an answer',
    }),
  z.strictObject({ type: z.literal('loop.abort'), reason: text.optional() }),
  z.strictObject({ type: z.literal('pipeline.continue') }),
  z.strictObject({ type: z.literal('pipeline.retry'), ...stage }),
  z.strictObject({
    type: z.literal('pipeline.modify'),
    stage: z.string().min(1).max(200),
    input: z.unknown(),
  }),
  z.strictObject({ type: z.literal('pipeline.abort'), reason: text.optional() }),
  // a parked run (its step in flight when its process died): what really happened to the step
  z
    .strictObject({ type: z.literal('outcome.happened'), result: z.unknown() })
    .refine((event) => event.result !== undefined, {
      message: 'outcome.happened needs the result the step returned',
    }),
  z.strictObject({ type: z.literal('outcome.did_not_happen') }),
  z.strictObject({ type: z.literal('outcome.give_up'), reason: text.optional() }),
  // an agent paused for its owner's choice of shape
  z.strictObject({ type: z.literal('shape.choose'), shape: z.enum(SHAPES) }),
]);
export type AnswerEvent = z.output<typeof answerEventSchema>;

/** The body of `POST /api/runs/{runId}/answer` and the `answer_run` tool's arguments. */
export const answerRequestSchema = z.strictObject({
  event: answerEventSchema,
  ifSeq: z
    .number()
    .int()
    .min(1)
    .describe(
      'The seq of the pause being answered (from the run detail): a later pause is never answered by mistake.',
    ),
  wait: z
    .boolean()
    .default(false)
    .describe('Wait until the run ends or pauses again, and return its detail.'),
});
export type AnswerRequest = z.output<typeof answerRequestSchema>;

/** What an accepted answer returns. */
export const answerResponseSchema = z.strictObject({
  accepted: z.literal(true),
  runId: z.string(),
  checkpoint: runSummarySchema.describe('The first checkpoint saved after the answer.'),
  run: runDetailSchema
    .nullable()
    .describe(
      'With wait: the run once it ended or paused again; otherwise null (it goes on in the server).',
    ),
});
export type AnswerResponse = z.infer<typeof answerResponseSchema>;

/** Why a request was refused; `code` is stable, `message` is for people. */
export const API_ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'answers_disabled',
  'unknown_loop',
  'conflict',
  'not_waiting',
  'invalid_answer',
  'unreadable',
  'internal',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const apiErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
