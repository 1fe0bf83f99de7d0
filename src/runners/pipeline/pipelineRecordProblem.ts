import { z } from 'zod';
import { LOOP_STATUSES } from '../../core/vocabulary/statuses.js';
import { loopContextSchema, pendingSchema } from '../../stores/kit/loopRunSchema.js';

// What a stored pipeline record must hold to be read at all (SPEC §14), as loopRunSchema.ts is
// for loops: loose objects, every field a reader or the runtime uses typed, nothing transformed.

const count = z.number().int().min(0);
const text = z.string();
const cost = z.number().finite().min(0);

const stageReportSchema = z.looseObject({
  status: z.enum(['not_started', 'running', 'succeeded', 'failed', 'skipped', 'aborted', 'paused']),
  layer: z.number().int().min(1),
  runs: count,
  iterations: count,
  attempts: count,
  cost,
  loopStatus: z.enum(LOOP_STATUSES).optional(),
  outcome: z.looseObject({ status: z.enum(LOOP_STATUSES), ok: z.boolean() }).optional(),
  note: text.optional(),
  reviewed: z.boolean().optional(),
  modifiedInput: z.looseObject({}).optional(),
  paused: z
    .looseObject({
      snapshot: z.looseObject({
        status: z.literal('active'),
        value: text,
        context: loopContextSchema,
      }),
      pending: pendingSchema,
      answer: z.looseObject({ type: text }).optional(),
    })
    .optional(),
});

const layerCheckSchema = z.looseObject({
  error: text.optional(),
  overridden: z.boolean(),
  runs: count,
});

const pauseSchema = z.looseObject({
  reason: z.enum(['stage_failed', 'cross_check_failed', 'stage_paused', 'checkpoint']),
  layer: z.number().int().min(1),
  stages: z.array(text),
  message: text,
});

const recordSchema = z.looseObject({
  status: z.enum(['running', 'paused', 'completed', 'aborted']),
  state: text,
  context: z.looseObject({
    planKey: text,
    stages: z.record(text, stageReportSchema),
    checks: z.record(text, layerCheckSchema),
    pause: pauseSchema.optional(),
    abortReason: text.optional(),
  }),
  claim: z.looseObject({ owner: text, expiresAt: z.number() }).optional(),
});

/**
 * Why a value tagged as a pipeline record is not a valid one (a stage report, check or pause of
 * the wrong shape, a paused record without its pause), or `undefined` when it is one.
 */
export function pipelineRecordProblem(value: unknown): string | undefined {
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const path = (first?.path ?? []).map(String).join('.') || '(root)';
    return `${path}: ${first?.message ?? 'invalid'}`;
  }
  const { status, context } = parsed.data;
  if (status === 'paused' && context.pause === undefined) return 'context.pause: missing';
  const stages = Object.keys(context.stages);
  if (stages.length === 0) return 'context.stages: none';
  const unknown = context.pause?.stages.find((id) => !stages.includes(id));
  if (unknown !== undefined) return `context.pause.stages: no stage '${unknown.slice(0, 60)}'`;
  return undefined;
}
