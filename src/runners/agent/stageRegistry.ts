import type { LoopConfig } from '../../core/vocabulary/config.js';
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

/** A stage loop's input when its kind has no `input` builder. */
export type DefaultStageInput = Pick<PlannedStageInput, 'request' | 'params' | 'results'>;

/** One entry of the registry a planner chooses from: a stage loop and how its input is built. */
export interface StageKind {
  /** Shown to the planner (`ctx.instructions`): what a stage of this kind does and which params it reads. */
  description?: string;
  loop: AnyLoopConfig;
  /** Builds the loop's input; default `{ request, params, results }`. */
  input?: (args: PlannedStageInput) => unknown;
}

/** A stage kind as `stageKind` takes it: its loop's input `I` is what `input` builds. */
export interface TypedStageKind<I, C> {
  description?: string;
  input: (args: PlannedStageInput) => I;
  loop: LoopConfig<I, C>;
}

/**
 * A registry entry whose loop is typed by its input builder: `ctx.input` in the loop's steps is
 * what `input` returns (write `input` before `loop`), or `{ request, params, results }` without one.
 * @example const lookup = stageKind({ input: ({ params }) => String(params.company), loop: { attempt: ({ input }) => fetchRevenue(input), validate } });
 */
export function stageKind<I, C>(kind: TypedStageKind<I, C>): StageKind;
export function stageKind<C>(kind: {
  description?: string;
  loop: LoopConfig<DefaultStageInput, C>;
}): StageKind;
export function stageKind(kind: StageKind): StageKind {
  return kind;
}

/** The stage kinds a planner may use, by name (a letter, then letters, digits, `_` or `-`). */
export type StageRegistry = Readonly<Record<string, StageKind>>;
