export type { PipelineMachine } from './createPipelineMachine.js';
export { createPipelineMachine } from './createPipelineMachine.js';
export type {
  BuiltInputStage,
  DependentStage,
  FirstStage,
  PipelineBuilder,
} from './definePipeline.js';
export { definePipeline } from './definePipeline.js';
export type { PipelinePaused, PipelineRunResult } from './drivePipeline.js';
export type {
  LayerCheck,
  PipelineContext,
  PipelineMachineInput,
  PipelinePause,
  StagePause,
  StageReport,
  StageStatus,
} from './pipelineContext.js';
export type { PipelineEmitted, PipelineEvent, StageAnswer } from './pipelineEvents.js';
export type { PipelineOutcome } from './pipelineOutcome.js';
export type {
  CrossCheckContext,
  PipelinePlan,
  PipelineStage,
  StageId,
  StageInputContext,
  StageResults,
} from './pipelinePlan.js';
export type { PipelineRecord } from './pipelineRecord.js';
export type { PipelineRunOptions, ResumePipelineOptions } from './runPipeline.js';
export { resumePipeline, runPipeline } from './runPipeline.js';
