import { z } from 'zod';
import type { PendingRequest } from '../../core/chart/loopContext.js';
import { FAILURE_KINDS } from '../../core/vocabulary/failures.js';
import type { LoopError } from '../../core/vocabulary/outcome.js';
import { LOOP_STATUSES } from '../../core/vocabulary/statuses.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import { SHAPES } from '../../runners/agent/shapes.js';
import { RUN_STATUSES, type RunSummary } from '../../stores/kit/CheckpointStore.js';
import type { Fits, SameKeys } from './typeChecks.js';

// The JSON the run API answers with. Handlers build values of these types and docs/api.md's
// schema is `z.toJSONSchema` of them; the `Same<…>` checks below keep them equal to the library's
// own types (typeChecks.ts), so a field added to LoopError or TraceEntry fails to compile here.

export const runSummarySchema = z.strictObject({
  runId: z.string(),
  seq: z.number().int().describe('The checkpoint number; pass it as ifSeq to answer this pause.'),
  status: z.enum(RUN_STATUSES),
  state: z.string().describe('The machine state, e.g. awaitingReview, or the final status.'),
  machineId: z.string().describe('The loop (or pipeline) id the run belongs to.'),
  updatedAt: z.number().describe('When the checkpoint was saved, ms since the epoch.'),
});

export const traceEntrySchema = z.strictObject({
  seq: z.number(),
  state: z.string(),
  iterationIndex: z.number(),
  attempt: z.number(),
  decision: z.string().optional(),
  retryCount: z.number(),
  rationale: z.string().optional(),
  key: z.string().optional(),
  fingerprint: z.string().optional(),
  failureKind: z.enum(FAILURE_KINDS).optional(),
  intermittent: z.literal(true).optional(),
  startedAt: z.number(),
  durationMs: z.number(),
  cost: z.number().optional(),
});

export const loopErrorSchema = z.strictObject({
  kind: z.enum(LOOP_STATUSES),
  state: z.string(),
  cap: z.union([z.number(), z.literal('deadlineMs')]).optional(),
  inFlight: z.enum(['attempt', 'validate', 'refine', 'fallback']).nullable().optional(),
  mayHaveActed: z.boolean().optional(),
  waitingFor: z
    .strictObject({
      operation: z.literal('save'),
      checkpoint: z.number(),
      lastSaved: z.number(),
    })
    .optional(),
  attempts: z.number(),
  lastOutput: z.unknown().optional(),
  message: z.string(),
  fingerprint: z.string().optional(),
  cause: z
    .strictObject({
      step: z.string(),
      kind: z.enum(FAILURE_KINDS),
      message: z.string(),
      name: z.string().optional(),
      status: z.number().optional(),
      code: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      usage: z.record(z.string(), z.number()).optional(),
    })
    .optional(),
});

export const pendingSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('clarification'),
    question: z.string(),
    options: z.array(z.string()).readonly().optional(),
    context: z.unknown().optional(),
  }),
  z.looseObject({
    kind: z.literal('review'),
    reason: z.enum(['beforeProceed', 'afterFailedValidation']),
    candidate: z.unknown(),
    verdict: z.unknown(),
  }),
]);

export const outcomeSchema = z.looseObject({
  status: z.enum(LOOP_STATUSES),
  ok: z.boolean(),
  iterations: z.number(),
  attempts: z.number(),
  cost: z.number(),
  rationale: z.string(),
  candidate: z.unknown().optional(),
  partial: z.unknown().optional(),
  empty: z.strictObject({ reason: z.string() }).optional(),
});

const rowFields = runSummarySchema.shape;

export const loopRunDetailSchema = z.strictObject({
  kind: z.literal('loop'),
  ...rowFields,
  pending: pendingSchema
    .nullable()
    .describe('What a paused run waits for: a question or a review request.'),
  answerWith: z
    .array(z.string())
    .describe('The event types this run takes now (empty when it takes none).'),
  parked: z
    .strictObject({
      reason: z.literal('unknown_outcome'),
      step: z.enum(['attempt', 'validate', 'refine', 'fallback']),
      since: z.number(),
      message: z.string(),
    })
    .optional()
    .describe(
      'Set on a run parked after its process died with this step in flight: answer what really happened (outcome.*).',
    ),
  outcome: outcomeSchema.nullable().describe('How a finished run ended (without its trace).'),
  error: loopErrorSchema.nullable().describe('Why a run ended without an ok result.'),
  progress: z.strictObject({ iterations: z.number(), attempts: z.number(), cost: z.number() }),
  trace: z.array(traceEntrySchema),
});

export const pipelineRunDetailSchema = z.strictObject({
  kind: z.literal('pipeline'),
  ...rowFields,
  pipelineStatus: z.enum(['running', 'paused', 'completed', 'aborted']),
  pause: z
    .discriminatedUnion('reason', [
      z.looseObject({
        reason: z.enum(['stage_failed', 'cross_check_failed', 'checkpoint']),
        layer: z.number(),
        stages: z.array(z.string()),
        message: z.string(),
      }),
      z.looseObject({
        reason: z.literal('stage_paused'),
        layer: z.number(),
        stages: z.array(z.string()),
        pending: z.record(z.string(), pendingSchema),
        message: z.string(),
      }),
    ])
    .nullable(),
  answerWith: z.array(z.string()),
  stages: z.record(
    z.string(),
    z.looseObject({
      status: z.string(),
      layer: z.number(),
      runs: z.number(),
      iterations: z.number(),
      attempts: z.number(),
      cost: z.number(),
      loopStatus: z.enum(LOOP_STATUSES).optional(),
    }),
  ),
});

const bound = z.number().nullable().describe('null: nothing bounds it');

export const agentRunDetailSchema = z.strictObject({
  kind: z.literal('agent'),
  ...rowFields,
  answerWith: z
    .array(z.string())
    .describe('shape.choose while the owner has not chosen (the event takes one of the shapes).'),
  choice: z
    .looseObject({
      format: z.literal('loopchart.agent.choice'),
      request: z.string(),
      decision: z.looseObject({ shape: z.enum(SHAPES), reasons: z.array(z.string()) }),
      candidates: z.array(
        z.looseObject({
          shape: z.enum(SHAPES),
          suggestedBy: z.enum(['heuristic', 'model']),
          certificate: z.discriminatedUnion('kind', [
            z.looseObject({
              kind: z.literal('loop'),
              calls: z.record(z.string(), z.looseObject({ value: bound })),
              cost: z.looseObject({ value: bound }),
              timeMs: z.looseObject({ value: bound }),
            }),
            z.looseObject({
              kind: z.literal('planned-pipeline'),
              maxStages: z.number(),
              calls: z.record(z.string(), bound),
              cost: bound,
              timeMs: bound,
            }),
          ]),
          covers: z.string(),
          gains: z.string(),
          risks: z.string(),
        }),
      ),
      recommendation: z.looseObject({
        shape: z.enum(SHAPES),
        reason: z.string(),
        missingFact: z.string(),
      }),
      question: z.string(),
    })
    .describe(
      'An agent run paused for its owner: the shapes its heuristic and model check chose, each with its worst case (certifyShape), a recommendation and the question.',
    ),
});

export const unreadableRunDetailSchema = z.strictObject({
  kind: z.literal('unreadable'),
  ...rowFields,
  problem: z.strictObject({ code: z.string(), message: z.string() }),
});

export const runDetailSchema = z.discriminatedUnion('kind', [
  loopRunDetailSchema,
  pipelineRunDetailSchema,
  agentRunDetailSchema,
  unreadableRunDetailSchema,
]);

export const runListSchema = z.strictObject({
  runs: z.array(runSummarySchema),
  next: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
});

export const traceSchema = z.strictObject({
  runId: z.string(),
  seq: z.number(),
  trace: z.array(traceEntrySchema),
});

export type RunDetail = z.infer<typeof runDetailSchema>;
export type LoopRunDetail = z.infer<typeof loopRunDetailSchema>;
export type AgentRunDetail = z.infer<typeof agentRunDetailSchema>;
export type RunList = z.infer<typeof runListSchema>;

type Schema<T extends z.ZodType> = z.infer<T>;
const sameTypes: [
  SameKeys<Schema<typeof runSummarySchema>, RunSummary>,
  Fits<RunSummary, Schema<typeof runSummarySchema>>,
  SameKeys<Schema<typeof traceEntrySchema>, TraceEntry>,
  Fits<TraceEntry, Schema<typeof traceEntrySchema>>,
  SameKeys<Schema<typeof loopErrorSchema>, LoopError>,
  Fits<LoopError, Schema<typeof loopErrorSchema>>,
  Fits<PendingRequest, Schema<typeof pendingSchema>>,
] = [true, true, true, true, true, true, true];
void sameTypes;
