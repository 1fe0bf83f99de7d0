export {
  assertBoundedLoops,
  describeCycle,
  isUnboundedLoopError,
  UnboundedLoopError,
} from './analysis/assertBoundedLoops.js';
export { budgetGuard, isBudgetGuard } from './analysis/budgetGuard.js';
export type { CycleCheckOptions, UnboundedCycle } from './analysis/findUnboundedCycles.js';
export { findUnboundedCycles } from './analysis/findUnboundedCycles.js';
export type {
  GraphEdge,
  GraphEdgeKind,
  GraphNode,
  GraphNodeType,
  MachineGraph,
} from './analysis/machineGraph.js';
export { machineGraph, WAITS_FOR_HUMAN } from './analysis/machineGraph.js';
export type {
  AttemptReturn,
  ClarificationAnswer,
  LoopConfig,
  LoopSettings,
  StepContext,
} from './config.js';
export { resolveConfig } from './config.js';
export type { MachineJson, MachineJsonEdge } from './diagram/toMachineJson.js';
export { toMachineJson } from './diagram/toMachineJson.js';
export type { MermaidOptions } from './diagram/toMermaid.js';
export { toMermaid } from './diagram/toMermaid.js';
export type {
  FailureClassification,
  FailureClassifier,
  FailureEffect,
  FailureKind,
  FailureRecord,
  StepName,
} from './failures.js';
export {
  classifyFailure,
  defaultClassifyFailure,
  FAILURE_KINDS,
  isLoopStepFailure,
  LoopStepFailure,
  permanentFailure,
  policyRejection,
  transientFailure,
  uncertainSideEffect,
} from './failures.js';
export type { Route, RouteArgs } from './guards/routeAfterValidation.js';
export { routeAfterValidation } from './guards/routeAfterValidation.js';
export { fingerprint, reproducibilityKey } from './hashing.js';
export { isLoopConfigError, LoopConfigError } from './LoopConfigError.js';
export type { LoopContext, LoopPhase, PendingRequest } from './machines/loopContext.js';
export type { LoopEvent } from './machines/loopEvents.js';
export type { LoopMachine, LoopMachineInput } from './machines/loopMachine.js';
export { createLoopMachine } from './machines/loopMachine.js';
export { loopMachineFor } from './machines/loopMachineFor.js';
export type { StepInput } from './machines/stepActors.js';
export type { LoopError, LoopOutcome, OutcomeFields } from './outcome.js';
export type { CheckpointErrorCode } from './persistence/CheckpointError.js';
export {
  CHECKPOINT_ERROR_CODES,
  CheckpointError,
  checkpointConflict,
  isCheckpointError,
} from './persistence/CheckpointError.js';
export type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunStatus,
  RunSummary,
} from './persistence/CheckpointStore.js';
export { RUN_STATUSES } from './persistence/CheckpointStore.js';
export type { Checkpoint, PersistedSnapshot } from './persistence/checkpointFormat.js';
export { CHECKPOINT_FORMAT, decodeCheckpoint } from './persistence/checkpointFormat.js';
export { MemoryCheckpointStore } from './persistence/MemoryCheckpointStore.js';
export { machineFingerprint } from './persistence/machineFingerprint.js';
export type { PausedRun, RunResult } from './persistence/PausedRun.js';
export { isPausedRun } from './persistence/PausedRun.js';
export type { CheckpointOptions } from './persistence/prepareLoop.js';
export type { ResumeOptions } from './persistence/resumeLoop.js';
export { resumeLoop } from './persistence/resumeLoop.js';
export type { PipelineMachine } from './pipeline/createPipelineMachine.js';
export { createPipelineMachine } from './pipeline/createPipelineMachine.js';
export type { PipelinePaused, PipelineRunResult } from './pipeline/drivePipeline.js';
export type {
  LayerCheck,
  PipelineContext,
  PipelineMachineInput,
  PipelinePause,
  StageReport,
  StageStatus,
} from './pipeline/pipelineContext.js';
export type { PipelineEmitted, PipelineEvent } from './pipeline/pipelineEvents.js';
export type { PipelineOutcome } from './pipeline/pipelineOutcome.js';
export type {
  CrossCheckContext,
  PipelinePlan,
  PipelineStage,
  StageInputContext,
} from './pipeline/pipelinePlan.js';
export type { PipelineRecord } from './pipeline/pipelineRecord.js';
export type { PipelineRunOptions, ResumePipelineOptions } from './pipeline/runPipeline.js';
export { resumePipeline, runPipeline } from './pipeline/runPipeline.js';
export type { RunOptions } from './runLoop.js';
export { runLoop, runLoopMachine } from './runLoop.js';
export type {
  ExtractedJson,
  SchemaIssue,
  SchemaValidator,
  SchemaValidatorOptions,
} from './schemaValidator/index.js';
export { extractJson, schemaValidator } from './schemaValidator/index.js';
export type { Decision, LoopStatus, OkStatus, StopStatus, TraceDecision } from './statuses.js';
export { DECISIONS, isOkStatus, LOOP_STATUSES, OK_STATUSES } from './statuses.js';
export type { ClarificationRequest, CostedResult, EmptyResult } from './stepResults.js';
export { clarificationRequest, emptyResult, withCost } from './stepResults.js';
export type { TraceEntry } from './trace.js';
export type { ValidationError, ValidationResult, Verdict } from './validation.js';
export { parseVerdict } from './validation.js';
