// The main entry: what a loop user needs. The rest lives on subpath entries: loopchart/analysis,
// loopchart/persistence, loopchart/pipeline, loopchart/testing, loopchart/viewer,
// loopchart/sqlite and loopchart/postgres.

export type { AnyLoopConfig } from './AnyLoopConfig.js';
export type { AnswerSchemas } from './answers/checkAnswer.js';
export type { StandardSchemaV1 } from './answers/standardSchema.js';
export type {
  AttemptReturn,
  ClarificationAnswer,
  LoopConfig,
  LoopSettings,
  StepContext,
} from './config.js';
export { DEFAULT_DEADLINE_MS, resolveConfig } from './config.js';
export { observeLoop } from './events/observeLoop.js';
export type { ObserveOptions } from './events/watchRun.js';
export type { FailureFacts } from './failureFacts.js';
export type {
  FailureCause,
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
export type { PendingRequest } from './machines/loopContext.js';
export type { LoopEvent } from './machines/loopEvents.js';
export type { LoopMachine, LoopMachineInput } from './machines/loopMachine.js';
export { createLoopMachine } from './machines/loopMachine.js';
export { loopMachineFor } from './machines/loopMachineFor.js';
export type {
  DecisionEntry,
  DecisionEvent,
  OutcomeEvent,
  PauseEvent,
  RunEvent,
  RunEventType,
  StepEntry,
  StepFinishedEvent,
  StepStartedEvent,
} from './machines/runEvents.js';
export type { LoopError, LoopOutcome, OutcomeFields } from './outcome.js';
export { CheckpointError, isCheckpointError } from './persistence/CheckpointError.js';
export type { CheckpointRecord, CheckpointStore } from './persistence/CheckpointStore.js';
export { MemoryCheckpointStore } from './persistence/MemoryCheckpointStore.js';
export type { PausedRun, RunResult } from './persistence/PausedRun.js';
export { isPausedRun } from './persistence/PausedRun.js';
export type { CheckpointOptions } from './persistence/prepareLoop.js';
export type { ResumeOptions } from './persistence/resumeLoop.js';
export { resumeLoop } from './persistence/resumeLoop.js';
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
export type { LoopSpan, SpanTracer } from './telemetry/spanTypes.js';
export type { TraceEntry } from './trace.js';
export type { ValidationError, ValidationResult, Verdict } from './validation.js';
export { parseVerdict } from './validation.js';
