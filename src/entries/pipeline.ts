export type { PipelineMachine } from '../runners/pipeline/createPipelineMachine.js';
export { createPipelineMachine } from '../runners/pipeline/createPipelineMachine.js';
export type {
  BuiltInputStage,
  DependentStage,
  FirstStage,
  PipelineBuilder,
} from '../runners/pipeline/definePipeline.js';
export { definePipeline } from '../runners/pipeline/definePipeline.js';
export type { PipelinePaused, PipelineRunResult } from '../runners/pipeline/drivePipeline.js';
export type {
  LayerCheck,
  PipelineContext,
  PipelineMachineInput,
  PipelinePause,
  StagePause,
  StageReport,
  StageStatus,
} from '../runners/pipeline/pipelineContext.js';
export type {
  PipelineEmitted,
  PipelineEvent,
  StageAnswer,
  StageModify,
} from '../runners/pipeline/pipelineEvents.js';
export type { PipelineOutcome } from '../runners/pipeline/pipelineOutcome.js';
export type {
  CrossCheckContext,
  PipelinePlan,
  PipelineStage,
  PlanInput,
  PlanResults,
  PlanStageInputs,
  StageId,
  StageInputContext,
  StageResults,
} from '../runners/pipeline/pipelinePlan.js';
export type { PipelineRecord } from '../runners/pipeline/pipelineRecord.js';
export type { PipelineRunOptions, ResumePipelineOptions } from '../runners/pipeline/runPipeline.js';
export { resumePipeline, runPipeline } from '../runners/pipeline/runPipeline.js';
