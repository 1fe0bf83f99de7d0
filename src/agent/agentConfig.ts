import { z } from 'zod';
import { type LoopConfig, resolveConfig } from '../config.js';
import { isLoopConfigError, LoopConfigError } from '../LoopConfigError.js';
import type { PipelinePlan } from '../pipeline/pipelinePlan.js';
import { configErrorFrom } from '../zodIssues.js';
import { defaultCheckPrompt, type ModelCheckOptions } from './modelCheck.js';
import { nameSchema } from './nameSchema.js';
import { type PlannerOptions, plannerLoop } from './plannerLoop.js';
import type { ResolvedRouter } from './routeShape.js';
import { DEFAULT_SHAPE_RULES, type ShapeRule } from './shapeRules.js';
import { SHAPES, type Shape } from './shapes.js';
import type { StageRegistry } from './stageRegistry.js';

/** An agent: how a request is routed, and what runs each shape. */
export interface AgentConfig<C = unknown> {
  /** The agent machine's id (default `agent`). */
  id?: string;
  /** The loop of the `loop` shape; `single-shot` runs it once: one attempt, one validation, no refine. */
  task: LoopConfig<string, C>;
  /** `fallback: true` lets a single-shot run use the task's fallback (default: it does not). */
  singleShot?: { fallback?: boolean };
  router?: {
    /** Rules tried before the built-in ones (`DEFAULT_SHAPE_RULES`). */
    rules?: readonly ShapeRule[];
    /** `false` drops the built-in rules. */
    defaultRules?: boolean;
    /** The shape of a request no rule matches (default `single-shot`). */
    defaultShape?: Shape;
    modelCheck?: ModelCheckOptions;
  };
  /** Plans the `pipeline` shape; without it a pipeline-shaped request runs as a loop. */
  planner?: PlannerOptions;
  /** The stage kinds the planner may use (required with `planner`). */
  registry?: StageRegistry;
  /** The planned pipeline's id (default `plannedPipeline`) and cross-stage checker. */
  pipeline?: { id?: string; crossCheck?: PipelinePlan['crossCheck'] };
}

/** An agent config after validation and defaults; built once by `createAgent`. */
export interface ResolvedAgent<C = unknown> {
  id: string;
  task: LoopConfig<string, C>;
  singleShotTask: LoopConfig<string, C>;
  router: ResolvedRouter;
  planning:
    | {
        loop: LoopConfig<string, unknown>;
        registry: StageRegistry;
        maxStages: number;
        pipeline: Pick<PipelinePlan, 'id' | 'crossCheck'>;
      }
    | undefined;
}

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  error: 'must be a function',
});
const object = (what: string) =>
  z.custom<object>((v) => typeof v === 'object' && v !== null, { error: `must be ${what}` });
const flag = z.boolean({ error: 'must be true or false' });
const int = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const shape = z.enum(SHAPES, { error: `must be one of ${SHAPES.join(', ')}` });

const agentSchema = z.strictObject({
  id: nameSchema.optional(),
  task: object('a loop config ({ attempt, validate, … })'),
  singleShot: z.strictObject({ fallback: flag.optional() }).optional(),
  router: z
    .strictObject({
      rules: z
        .array(
          z.strictObject({
            id: z.string().min(1, { error: 'must be a non-empty string' }),
            shape,
            match: z.union([z.string().trim().min(1), z.instanceof(RegExp)], {
              error: 'must be a word or phrase, or a RegExp',
            }),
            reason: z.string().min(1, { error: 'must be a non-empty string' }),
          }),
        )
        .optional(),
      defaultRules: flag.optional(),
      defaultShape: shape.optional(),
      modelCheck: z
        .strictObject({
          ask: fn,
          maxTokens: int(1, 1000).optional(),
          timeoutMs: int(1, 60_000).optional(),
          when: z
            .enum(['unmatched', 'always'], { error: "must be 'unmatched' or 'always'" })
            .optional(),
          prompt: fn.optional(),
        })
        .optional(),
    })
    .optional(),
  planner: z
    .strictObject({
      plan: fn,
      fallback: fn.optional(),
      maxStages: int(1, 64).optional(),
      loop: object('loop options ({ maxRetries, … })').optional(),
    })
    .optional(),
  registry: z
    .record(
      nameSchema,
      z.strictObject({
        description: z.string().optional(),
        loop: object('a loop config'),
        input: fn.optional(),
      }),
    )
    .refine((registry) => Object.keys(registry).length > 0, {
      error: 'must name at least one stage kind',
    })
    .optional(),
  pipeline: z.strictObject({ id: nameSchema.optional(), crossCheck: fn.optional() }).optional(),
});

/**
 * Validates an agent config (throws `LoopConfigError` naming the field, loops' fields included)
 * and fills in its defaults.
 * @example const resolved = resolveAgentConfig({ task: { attempt, validate } });
 */
export function resolveAgentConfig<C>(config: AgentConfig<C>): ResolvedAgent<C> {
  const parsed = agentSchema.safeParse(config, { reportInput: true });
  if (!parsed.success)
    throw configErrorFrom('agent config', parsed.error, Object.keys(agentSchema.shape));
  const { planner, registry } = config;
  if ((planner === undefined) !== (registry === undefined)) {
    throw new LoopConfigError(
      `loopchart: invalid agent config\n  - ${planner ? 'registry: is required with a planner (the stage kinds it may use)' : 'planner: is required with a registry (a registry is only read by a planner)'}`,
    );
  }
  nested('task', () => resolveConfig(config.task));
  for (const [kind, entry] of Object.entries(registry ?? {}))
    nested(`registry.${kind}.loop`, () => resolveConfig(entry.loop));
  const maxStages = planner?.maxStages ?? 12;
  const planLoop = planner && registry ? plannerLoop(planner, registry, maxStages) : undefined;
  if (planLoop) nested('planner.loop', () => resolveConfig(planLoop));
  const { refine: _refine, fallback, ...once } = config.task;
  const check = config.router?.modelCheck;
  return {
    id: config.id ?? 'agent',
    task: config.task,
    singleShotTask: {
      ...once,
      maxRetries: 0,
      maxAttempts: 1,
      stall: false,
      ...(config.singleShot?.fallback && fallback ? { fallback } : {}),
    },
    router: {
      rules: [
        ...(config.router?.rules ?? []),
        ...(config.router?.defaultRules === false ? [] : DEFAULT_SHAPE_RULES),
      ],
      defaultShape: config.router?.defaultShape ?? 'single-shot',
      modelCheck: check && {
        ask: check.ask,
        maxTokens: check.maxTokens ?? 16,
        timeoutMs: check.timeoutMs ?? 3000,
        when: check.when ?? 'unmatched',
        prompt: check.prompt ?? defaultCheckPrompt,
      },
      canPlan: planLoop !== undefined,
    },
    planning:
      planLoop && registry
        ? {
            loop: planLoop,
            registry,
            maxStages,
            pipeline: {
              id: config.pipeline?.id ?? 'plannedPipeline',
              ...(config.pipeline?.crossCheck ? { crossCheck: config.pipeline.crossCheck } : {}),
            },
          }
        : undefined,
  };
}

/** Runs a loop-config check and names where the loop sits in the agent config. */
function nested(path: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    const detail = error.message.split('\n').slice(1).join('\n');
    throw new LoopConfigError(
      `loopchart: invalid agent config\n  - ${path} is not a valid loop config:\n${detail.replace(/^/gm, '  ')}`,
      error.issues.map((issue) => ({ ...issue, path: [...path.split('.'), ...issue.path] })),
    );
  }
}
