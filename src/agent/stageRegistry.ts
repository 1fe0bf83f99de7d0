import type { AnyLoopConfig, StageInputContext } from '../pipeline/pipelinePlan.js';

/** What a planned stage's `input` builder receives. */
export interface PlannedStageInput {
  /** The agent's request. */
  request: string;
  /** The stage's `params` from the plan (JSON the planner chose, e.g. `{ company: 'acme' }`). */
  params: Readonly<Record<string, unknown>>;
  /** The candidates of the stage's dependencies, by stage id. */
  results: Readonly<Record<string, unknown>>;
  outcomes: StageInputContext['outcomes'];
}

/** One entry of the registry a planner chooses from: a stage loop and how its input is built. */
export interface StageKind {
  /** Shown to the planner (`ctx.instructions`): what a stage of this kind does and which params it reads. */
  description?: string;
  loop: AnyLoopConfig;
  /** Builds the loop's input; default `{ request, params, results }`. */
  input?: (args: PlannedStageInput) => unknown;
}

/** The stage kinds a planner may use, by name (a letter, then letters, digits, `_` or `-`). */
export type StageRegistry = Readonly<Record<string, StageKind>>;
