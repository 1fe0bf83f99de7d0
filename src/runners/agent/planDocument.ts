import { z } from 'zod';
import { extractJson } from '../../adapters/schemaValidator/extractJson.js';
import { isLoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { PipelinePlan, PipelineStage } from '../pipeline/pipelinePlan.js';
import { resolvePlan } from '../pipeline/resolvePlan.js';
import { nameSchema } from './nameSchema.js';
import type { StageRegistry } from './stageRegistry.js';

const plannedStageSchema = z
  .object({
    id: nameSchema,
    kind: z.string({ error: 'must be the name of a stage kind' }),
    dependsOn: z
      .array(z.string({ error: 'must be a stage id' }), { error: 'must be an array of stage ids' })
      .optional(),
    depends_on: z
      .array(z.string({ error: 'must be a stage id' }), { error: 'must be an array of stage ids' })
      .optional(),
    checkpoint: z.boolean({ error: 'must be true or false' }).optional(),
    params: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
  })
  .transform(({ depends_on, dependsOn, ...stage }) => ({
    ...stage,
    dependsOn: dependsOn ?? depends_on ?? [],
    checkpoint: stage.checkpoint ?? false,
    params: stage.params ?? {},
  }));

/** The JSON plan a planner returns (`depends_on` is read as `dependsOn`; unknown keys are dropped). */
export const planDocumentSchema = z.object({
  stages: z
    .array(plannedStageSchema, { error: 'must be an array of stages' })
    .min(1, { error: 'must hold at least one stage' }),
});

/** An accepted plan: what is stored with the pipeline's record and rebuilt on resume. */
export type PlanDocument = z.output<typeof planDocumentSchema>;

/** A plan that fits the registry, or every problem found in it. */
export type PlanCheck = { ok: true; document: PlanDocument } | { ok: false; problems: string[] };

/**
 * Checks an untrusted plan (JSON text, a model's reply with a ```json block, or a value) against
 * the registry: its shape, then unknown kinds, duplicate ids, missing dependencies and cycles,
 * each problem one sentence naming the stages.
 * @example checkPlan('{"stages":[{"id":"a","kind":"lookup"}]}', registry, 8) // { ok: true, document }
 */
export function checkPlan(value: unknown, registry: StageRegistry, maxStages: number): PlanCheck {
  let raw = value;
  if (typeof value === 'string') {
    const found = extractJson(value);
    if (!found.ok) return { ok: false, problems: [found.message] };
    raw = found.value;
  }
  const parsed = planDocumentSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (issue) => `${['plan', ...issue.path].join('.')}: ${issue.message}`,
      ),
    };
  }
  const document = parsed.data;
  const kinds = Object.keys(registry);
  const problems = document.stages.flatMap((stage) =>
    Object.hasOwn(registry, stage.kind)
      ? []
      : [
          `stage '${stage.id}' has the unknown kind '${stage.kind}' (known kinds: ${kinds.join(', ')})`,
        ],
  );
  if (document.stages.length > maxStages) {
    problems.push(
      `the plan has ${document.stages.length} stages; at most ${maxStages} are allowed`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  try {
    resolvePlan(planFromDocument(document, registry));
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    return { ok: false, problems: error.issues.map((issue) => issue.message) };
  }
  return { ok: true, document };
}

/**
 * The pipeline plan of an accepted plan document: each stage runs its kind's loop, with an input
 * built from the request, the stage's params and its dependencies' results.
 * @example const plan = planFromDocument(document, registry, { id: 'research' });
 */
export function planFromDocument(
  document: PlanDocument,
  registry: StageRegistry,
  options: Pick<PipelinePlan, 'id' | 'crossCheck'> = {},
): PipelinePlan {
  const stages = document.stages.map((stage): PipelineStage => {
    const kind = registry[stage.kind];
    if (!kind)
      throw new Error(`loopchart: stage '${stage.id}' has the unknown kind '${stage.kind}'`);
    const build = kind.input ?? (({ request, params, results }) => ({ request, params, results }));
    return {
      id: stage.id,
      dependsOn: stage.dependsOn,
      checkpoint: stage.checkpoint,
      loop: kind.loop,
      input: (results, ctx) =>
        build({
          request: String(ctx.input),
          params: stage.params,
          results,
          outcomes: ctx.outcomes,
        }),
    };
  });
  return {
    ...(options.id ? { id: options.id } : {}),
    stages,
    ...(options.crossCheck ? { crossCheck: options.crossCheck } : {}),
  };
}
