import type { LoopEvent } from '../../core/chart/loopEvents.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { PipelinePause, StageStatus } from './pipelineContext.js';
import type { StageId } from './pipelinePlan.js';

type Ids = Record<string, unknown>;
type InputOf<SI extends Ids, K extends string> = K extends keyof SI ? SI[K] : unknown;

/**
 * A person's answer to a paused pipeline of stage candidates `R` and stage inputs `SI` (by id:
 * `PlanResults<typeof plan>`, `PlanStageInputs<typeof plan>`). `stage` must belong to the paused layer.
 * - `pipeline.continue`: go on as things are (skip the failed stages, accept the layer the
 *   cross-check rejected, or approve the checkpoint).
 * - `pipeline.retry`: run the named stage (default: the stages the pause is about) again.
 * - `pipeline.modify`: run the named stage again with a new input.
 * - `pipeline.abort`: end the pipeline as `aborted` (accepted at any time, not only in a pause).
 */
export type PipelineEvent<R extends Ids = Ids, SI extends Ids = Ids> =
  | { type: 'pipeline.continue' }
  | { type: 'pipeline.retry'; stage?: StageId<R> }
  | StageModify<R, SI>
  | { type: 'pipeline.abort'; reason?: string }
  | StageAnswer<R, SI>;

/** `pipeline.modify` of one stage: its new input, of that stage loop's input type. */
export type StageModify<R extends Ids = Ids, SI extends Ids = Ids> = {
  [K in StageId<R>]: { type: 'pipeline.modify'; stage: K; input: InputOf<SI, K> };
}[StageId<R>];

/**
 * The answer to a stage whose loop paused (a review, a question): the loop's own event plus the
 * stage, e.g. `{ type: 'review.continue', stage: 'draft' }`.
 */
export type StageAnswer<R extends Ids = Ids, SI extends Ids = Ids> = {
  [K in StageId<R>]: Exclude<LoopEvent<InputOf<SI, K>, R[K]>, { type: 'loop.abort' }> & {
    stage: K;
  };
}[StageId<R>];

/** Events XState sends the pipeline when a stage's loop actor ends (internal). */
export type StageActorEvent =
  | { type: `xstate.done.actor.stage:${string}`; output: LoopOutcome }
  | { type: `xstate.error.actor.stage:${string}`; error: unknown }
  | { type: 'pipeline.stage.paused'; stage: string; snapshot: unknown };

/** What a running pipeline emits (`actor.on(type, …)`), in the order it happens. */
export type PipelineEmitted =
  | { type: 'pipeline.stage.started'; stage: string; layer: number; run: number; input: unknown }
  | {
      type: 'pipeline.stage.finished';
      stage: string;
      layer: number;
      run: number;
      status: StageStatus;
      loopStatus?: LoopStatus;
    }
  | { type: 'pipeline.paused'; pause: PipelinePause };
