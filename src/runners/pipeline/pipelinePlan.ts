import { z } from 'zod';
import type { AnyLoopPlan } from '../../core/chart/AnyLoopPlan.js';
import type { AnyLoopConfig } from '../../core/vocabulary/AnyLoopConfig.js';
import { intRange } from '../../core/vocabulary/config.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { ValidationResult } from '../../core/vocabulary/validation.js';

export type { AnyLoopConfig };

type MaybePromise<T> = T | Promise<T>;

/** The results of a pipeline's stages by id; a stage that failed, was skipped or ended `empty` has none. */
export type StageResults<R extends Record<string, unknown> = Record<string, unknown>> = {
  readonly [K in keyof R]?: R[K];
};

/** The stage ids of a pipeline whose results are `R`. */
export type StageId<R extends Record<string, unknown> = Record<string, unknown>> = keyof R & string;

/** What a stage's `input` builder receives besides its dependencies' results. */
export interface StageInputContext<
  PI = unknown,
  R extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The pipeline's own input. */
  readonly input: PI;
  /** The full loop outcome of each dependency that finished (ok ones only). */
  readonly outcomes: { readonly [K in keyof R]?: LoopOutcome<R[K]> };
}

/** What the cross-stage checker receives besides the layer's results. */
export interface CrossCheckContext<PI = unknown> {
  /** The layer's number, 1 for the stages without dependencies. */
  readonly layer: number;
  /** The ids of the layer's stages that succeeded; `results` holds each one's candidate, but an `empty` stage has none. */
  readonly stages: readonly string[];
  /** The pipeline's own input. */
  readonly input: PI;
  readonly signal: AbortSignal;
}

/** One stage of a pipeline: a loop, the stages it waits for, and how its input is built. */
export interface PipelineStage {
  /** A letter followed by up to 63 letters, digits, `_` or `-`; the child actor is `stage:<id>`. */
  id: string;
  /** Ids of the stages whose results this stage needs; it runs in a later layer than all of them. */
  dependsOn?: readonly string[];
  /**
   * The stage's loop (its config, or the plan `compileLoop` made of it); its own bounds,
   * validation and retries apply inside the stage.
   */
  loop: AnyLoopConfig | AnyLoopPlan;
  /**
   * Builds the loop's input from the dependencies' results (`{ [id]: candidate }`). Default: the
   * pipeline's input for a stage without dependencies, the results object otherwise.
   */
  input?: (results: Readonly<Record<string, unknown>>, ctx: StageInputContext) => unknown;
  /** Pause for review after the stage succeeds (`pipeline.continue` approves). */
  checkpoint?: boolean;
  /**
   * When a dependency was skipped (`pipeline.continue` past its failure): `'skip'` (default) skips
   * this stage too; `'run'` runs it with the results that exist.
   */
  whenDependencySkipped?: 'skip' | 'run';
}

declare const planTypes: unique symbol;

/**
 * A pipeline: stages, run in dependency layers, and an optional cross-stage checker. `PI` is the
 * pipeline's input, `R` each stage's candidate by id and `SI` each stage loop's input by id;
 * `definePipeline` infers all three (`PlanInput`, `PlanResults`, `PlanStageInputs` name them).
 */
export interface PipelinePlan<
  PI = unknown,
  R extends Record<string, unknown> = Record<string, unknown>,
  SI extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The machine id (default `pipeline`); child system ids are `<id>/stage:<stage>`. */
  id?: string;
  stages: readonly PipelineStage[];
  /**
   * Checks a layer of several stages as a whole before anything downstream starts; an invalid
   * verdict pauses the pipeline with it.
   */
  crossCheck?(results: StageResults<R>, ctx: CrossCheckContext<PI>): MaybePromise<ValidationResult>;
  /** Carries the plan's types for inference; never set at run time. */
  readonly [planTypes]?: { readonly input: PI; readonly results: R; readonly stageInputs: SI };
  /**
   * How long the cross-check may take before it counts as failed (its signal is aborted and the
   * pipeline pauses with `cross_check_failed`); default 15 minutes, like a loop's `deadlineMs`.
   */
  crossCheckTimeoutMs?: number;
}

type TypesOf<P> =
  P extends PipelinePlan<infer PI, infer R, infer SI>
    ? { input: PI; results: R; stageInputs: SI }
    : never;

/**
 * Each stage's candidate type by id, of a plan `definePipeline` built: what `PipelineOutcome`,
 * `PipelineRunResult` and `PipelinePause` take. A stage's entry in `results` has this type.
 * @example function report(outcome: PipelineOutcome<PlanResults<typeof plan>>) { return outcome.results.summary; }
 */
export type PlanResults<P extends PipelinePlan> = TypesOf<P>['results'];

/** The pipeline's input type of a plan: `PlanInput<typeof plan>`. */
export type PlanInput<P extends PipelinePlan> = TypesOf<P>['input'];

/** Each stage loop's input type by id, of a plan: what `pipeline.modify` takes for that stage. */
export type PlanStageInputs<P extends PipelinePlan> = TypesOf<P>['stageInputs'];

const NAME = /^[A-Za-z][\w-]{0,63}$/;
const nameError = 'must be a letter followed by up to 63 letters, digits, _ or -';
const aFunction = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  error: 'must be a function',
});

const stageSchema = z.strictObject({
  id: z.string({ error: nameError }).regex(NAME, { error: nameError }),
  dependsOn: z
    .array(z.string({ error: 'must be a stage id' }), { error: 'must be an array of stage ids' })
    .optional(),
  loop: z.custom<AnyLoopConfig | AnyLoopPlan>((v) => typeof v === 'object' && v !== null, {
    error: 'must be a loop config ({ attempt, validate, … })',
  }),
  input: aFunction.optional(),
  checkpoint: z.boolean({ error: 'must be true or false' }).optional(),
  whenDependencySkipped: z.enum(['skip', 'run'], { error: "must be 'skip' or 'run'" }).optional(),
});

/** The shape of a plan, validated at creation (the dependency graph is checked afterwards). */
export const pipelinePlanSchema = z.strictObject({
  id: z.string({ error: nameError }).regex(NAME, { error: nameError }).optional(),
  stages: z
    .array(stageSchema, { error: 'must be an array of stages' })
    .min(1, { error: 'must hold at least one stage' }),
  crossCheck: aFunction.optional(),
  crossCheckTimeoutMs: intRange(1, 604_800_000).optional(),
});
