import type { LoopPlan } from '../../core/chart/compileLoop.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { ValidationResult } from '../../core/vocabulary/validation.js';
import type {
  CrossCheckContext,
  PipelinePlan,
  PipelineStage,
  StageId,
  StageInputContext,
  StageResults,
} from './pipelinePlan.js';

type MaybePromise<T> = T | Promise<T>;
type Flat<T> = { [K in keyof T]: T[K] };

/** What every stage may say besides its loop and input. */
interface StageOptions {
  /** Pause for review after the stage succeeds (`pipeline.continue` approves). */
  checkpoint?: boolean;
  /** When a dependency was skipped: `'skip'` (default) skips this stage too; `'run'` runs it. */
  whenDependencySkipped?: 'skip' | 'run';
}

/** A stage whose loop input is built by `input` from its dependencies' results (write `input` before `loop`). */
export interface BuiltInputStage<PI, R extends Record<string, unknown>, D extends StageId<R>, I, C>
  extends StageOptions {
  dependsOn?: readonly D[];
  input: (results: StageResults<Pick<R, D>>, ctx: StageInputContext<PI, Pick<R, D>>) => I;
  loop: LoopConfig<I, C> | LoopPlan<I, C>;
}

/** A stage without dependencies whose loop takes the pipeline's input. */
export interface FirstStage<PI, C> extends StageOptions {
  dependsOn?: readonly [];
  input?: undefined;
  loop: LoopConfig<PI, C> | LoopPlan<PI, C>;
}

/** A stage whose loop takes its dependencies' results as they are. */
export interface DependentStage<R extends Record<string, unknown>, D extends StageId<R>, C>
  extends StageOptions {
  dependsOn: readonly [D, ...D[]];
  input?: undefined;
  loop: LoopConfig<StageResults<Pick<R, D>>, C> | LoopPlan<StageResults<Pick<R, D>>, C>;
}

/**
 * A pipeline being defined: each `stage` adds one, typed by the stages before it. `R` holds each
 * stage's candidate type by id, `SI` each stage loop's input type.
 */
export interface PipelineBuilder<
  PI,
  R extends Record<string, unknown>,
  SI extends Record<string, unknown> = Record<never, never>,
> {
  /** Adds a stage whose loop input `input(results, ctx)` builds. */
  stage<Id extends string, I, C, D extends StageId<R> = never>(
    id: Id,
    spec: BuiltInputStage<PI, R, D, I, C>,
  ): PipelineBuilder<PI, Flat<R & Record<Id, C>>, Flat<SI & Record<Id, I>>>;
  /** Adds a stage without dependencies: its loop takes the pipeline's input. */
  stage<Id extends string, C>(
    id: Id,
    spec: FirstStage<PI, C>,
  ): PipelineBuilder<PI, Flat<R & Record<Id, C>>, Flat<SI & Record<Id, PI>>>;
  /** Adds a stage whose loop takes its dependencies' results by id. */
  stage<Id extends string, C, D extends StageId<R>>(
    id: Id,
    spec: DependentStage<R, D, C>,
  ): PipelineBuilder<PI, Flat<R & Record<Id, C>>, Flat<SI & Record<Id, StageResults<Pick<R, D>>>>>;
  /** The finished plan for `runPipeline`, `resumePipeline` and `createPipelineMachine`. */
  plan(options?: {
    crossCheck?: (
      results: StageResults<R>,
      ctx: CrossCheckContext<PI>,
    ) => MaybePromise<ValidationResult>;
  }): PipelinePlan<PI, R, SI>;
}

/**
 * Starts a typed pipeline: stage ids become literal types, each stage's `input` sees the results
 * of its `dependsOn`, its loop's input and candidate types are inferred, and the plan's outcome
 * types `results` by stage id. `PI` is the pipeline's input. The plan is checked when it is run.
 * @example const plan = definePipeline<string>()
 *            .stage('ledger', { loop: ledgerLoop })
 *            .stage('report', { dependsOn: ['ledger'], input: (r) => r.ledger ?? [], loop: reportLoop })
 *            .plan();
 */
export function definePipeline<PI = unknown>(
  options: { id?: string } = {},
): PipelineBuilder<PI, Record<never, never>> {
  return builder<PI, Record<never, never>>(options.id, []);
}

function builder<PI, R extends Record<string, unknown>>(
  id: string | undefined,
  stages: readonly PipelineStage[],
): PipelineBuilder<PI, R, Record<never, never>> {
  return {
    // The overloads type each stage; stored, a stage is one of any types like a plain plan's.
    stage: (stageId: string, spec: Omit<PipelineStage, 'id'>) =>
      builder(id, [...stages, { id: stageId, ...spec }]),
    plan: (options = {}) => ({
      ...(id === undefined ? {} : { id }),
      stages,
      ...(options.crossCheck ? { crossCheck: options.crossCheck } : {}),
    }),
  } as PipelineBuilder<PI, R, Record<never, never>>;
}
