import type { LoopEvent } from '../machines/loopEvents.js';
import type { LoopOutcome } from '../outcome.js';
import type { LoopStatus } from '../statuses.js';
import type { PipelinePause, StageStatus } from './pipelineContext.js';

/**
 * A person's answer to a paused pipeline. `stage` must belong to the paused layer.
 * - `pipeline.continue`: go on as things are (skip the failed stages, accept the layer the
 *   cross-check rejected, or approve the checkpoint).
 * - `pipeline.retry`: run the named stage (default: the stages the pause is about) again.
 * - `pipeline.modify`: run the named stage again with a new input.
 * - `pipeline.abort`: end the pipeline as `aborted` (accepted at any time, not only in a pause).
 */
export type PipelineEvent<Id extends string = string> =
  | { type: 'pipeline.continue' }
  | { type: 'pipeline.retry'; stage?: Id }
  | { type: 'pipeline.modify'; stage: Id; input: unknown }
  | { type: 'pipeline.abort'; reason?: string }
  | StageAnswer<Id>;

/**
 * The answer to a stage whose loop paused (a review, a question): the loop's own event plus the
 * stage, e.g. `{ type: 'review.continue', stage: 'draft' }`.
 */
export type StageAnswer<Id extends string = string> = Exclude<LoopEvent, { type: 'loop.abort' }> & {
  stage: Id;
};

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
