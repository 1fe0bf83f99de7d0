import { z } from 'zod';
import { compileLoop, type LoopPlan } from '../../core/chart/compileLoop.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import { isLoopConfigError, LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';
import type { PipelinePlan } from '../pipeline/pipelinePlan.js';
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
    /**
     * When the model check's shape differs from the heuristic's: `'model'` (default) runs the
     * model's; `'ask'` pauses the run with an owner choice brief (`outcome.choice`).
     */
    onDisagreement?: 'model' | 'ask';
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
  /** `task` and `singleShotTask` compiled once, for every run of the agent. */
  plans: { task: LoopPlan<string, C>; singleShot: LoopPlan<string, C> };
  router: ResolvedRouter;
  planning:
    | {
        /** The planner loop, compiled. */
        loop: LoopPlan<string, unknown>;
        /** The registry with each kind's loop compiled (a pipeline stage takes a plan as its loop). */
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
      onDisagreement: z.enum(['model', 'ask'], { error: "must be 'model' or 'ask'" }).optional(),
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
  const taskPlan = nested('task', () => compileLoop(config.task));
  const compiled: StageRegistry = Object.fromEntries(
    Object.entries(registry ?? {}).map(([kind, entry]) => {
      const loop = nested(`registry.${kind}.loop`, () => compileLoop(entry.loop));
      return [kind, { ...entry, loop: loop as unknown as LoopConfig }];
    }),
  );
  const maxStages = planner?.maxStages ?? 12;
  const planLoop =
    planner && registry
      ? nested('planner.loop', () => compileLoop(plannerLoop(planner, compiled, maxStages)))
      : undefined;
  const { refine: _refine, fallback, ...once } = config.task;
  const singleShotTask: LoopConfig<string, C> = {
    ...once,
    maxRetries: 0,
    maxAttempts: 1,
    stall: false,
    ...(config.singleShot?.fallback && fallback ? { fallback } : {}),
  };
  const check = config.router?.modelCheck;
  return {
    id: config.id ?? 'agent',
    task: config.task,
    singleShotTask,
    plans: { task: taskPlan, singleShot: compileLoop(singleShotTask) },
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
      onDisagreement: config.router?.onDisagreement ?? 'model',
    },
    planning:
      planLoop && registry
        ? {
            loop: planLoop,
            registry: compiled,
            maxStages,
            pipeline: {
              id: config.pipeline?.id ?? 'plannedPipeline',
              ...(config.pipeline?.crossCheck ? { crossCheck: config.pipeline.crossCheck } : {}),
            },
          }
        : undefined,
  };
}

/** Compiles a loop config, naming where the loop sits in the agent config when it is invalid. */
function nested<T>(path: string, compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    const detail = error.message.split('\n').slice(1).join('\n');
    throw new LoopConfigError(
      `loopchart: invalid agent config\n  - ${path} is not a valid loop config:\n${detail.replace(/^/gm, '  ')}`,
      error.issues.map((issue) => ({ ...issue, path: [...path.split('.'), ...issue.path] })),
    );
  }
}
