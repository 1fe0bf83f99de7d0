// The main entry: what a loop user needs. The rest lives on subpath entries: loopchart/analysis,
// loopchart/persistence, loopchart/pipeline, loopchart/testing, loopchart/viewer,
// loopchart/sqlite and loopchart/postgres.

export type { ExtractedJson } from '../adapters/schemaValidator/extractJson.js';
export { extractJson } from '../adapters/schemaValidator/extractJson.js';
export type { SchemaIssue } from '../adapters/schemaValidator/schemaIssues.js';
export type {
  SchemaValidator,
  SchemaValidatorOptions,
} from '../adapters/schemaValidator/schemaValidator.js';
export { schemaValidator } from '../adapters/schemaValidator/schemaValidator.js';
export type { LoopSpan, SpanTracer } from '../adapters/telemetry/spanTypes.js';
export type { AnyLoopPlan } from '../core/chart/AnyLoopPlan.js';
export type { LoopPlan } from '../core/chart/compileLoop.js';
export { compileLoop, createLoopMachine } from '../core/chart/compileLoop.js';
export type { PendingRequest } from '../core/chart/loopContext.js';
export type { LoopEvent } from '../core/chart/loopEvents.js';
export type { LoopMachine, LoopMachineInput } from '../core/chart/loopMachine.js';
export { loopMachineFor } from '../core/chart/loopMachineFor.js';
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
} from '../core/chart/runEvents.js';
export type { Route, RouteArgs } from '../core/decisions/routeAfterValidation.js';
export { routeAfterValidation } from '../core/decisions/routeAfterValidation.js';
export type { AnswerSchemas } from '../core/vocabulary/AnswerSchemas.js';
export type { AnyLoopConfig } from '../core/vocabulary/AnyLoopConfig.js';
export type {
  AttemptReturn,
  ClarificationAnswer,
  LoopConfig,
  LoopSettings,
  StepContext,
} from '../core/vocabulary/config.js';
export { DEFAULT_DEADLINE_MS, resolveConfig } from '../core/vocabulary/config.js';
export type { FailureFacts } from '../core/vocabulary/failureFacts.js';
export type {
  FailureCause,
  FailureClassification,
  FailureClassifier,
  FailureEffect,
  FailureKind,
  FailureRecord,
  StepName,
} from '../core/vocabulary/failures.js';
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
} from '../core/vocabulary/failures.js';
export { fingerprint, reproducibilityKey } from '../core/vocabulary/hashing.js';
export { isLoopConfigError, LoopConfigError } from '../core/vocabulary/LoopConfigError.js';
export type {
  LoopError,
  LoopOutcome,
  OutcomeFields,
  PendingOperation,
} from '../core/vocabulary/outcome.js';
export type { StandardSchemaV1 } from '../core/vocabulary/standardSchema.js';
export type {
  Decision,
  LoopStatus,
  OkStatus,
  StopStatus,
  TraceDecision,
} from '../core/vocabulary/statuses.js';
export { DECISIONS, isOkStatus, LOOP_STATUSES, OK_STATUSES } from '../core/vocabulary/statuses.js';
export type { StepBudget } from '../core/vocabulary/stepBudget.js';
export type {
  ClarificationRequest,
  CostedResult,
  EmptyResult,
} from '../core/vocabulary/stepResults.js';
export { clarificationRequest, emptyResult, withCost } from '../core/vocabulary/stepResults.js';
export type { TraceEntry } from '../core/vocabulary/trace.js';
export type { ValidationError, ValidationResult, Verdict } from '../core/vocabulary/validation.js';
export { parseVerdict } from '../core/vocabulary/validation.js';
export type { LoopCandidateOf } from '../runners/loop/observeLoop.js';
export { observeLoop } from '../runners/loop/observeLoop.js';
export type { PausedRun, RunResult } from '../runners/loop/PausedRun.js';
export { isPausedRun } from '../runners/loop/PausedRun.js';
export type { CheckpointOptions } from '../runners/loop/prepareLoop.js';
export type { ResumeOptions } from '../runners/loop/resumeLoop.js';
export { resumeLoop } from '../runners/loop/resumeLoop.js';
export type { RunOptions } from '../runners/loop/runLoop.js';
export { runLoop, runLoopMachine } from '../runners/loop/runLoop.js';
export type { ObserveOptions } from '../runners/loop/watchRun.js';
export type { Spent } from '../runners/operate/branchRun.js';
export type { ContinueOptions, TopUp } from '../runners/operate/continueRun.js';
export { continueRun, topUpConfig } from '../runners/operate/continueRun.js';
export type { ForkOptions } from '../runners/operate/forkRun.js';
export { forkRun } from '../runners/operate/forkRun.js';
export type { RecoveryReport } from '../runners/operate/RecoveryReport.js';
export type { RunLink } from '../runners/operate/RunLink.js';
export type { ReconcileAnswer } from '../runners/operate/reconcileAnswer.js';
export type { ReconcileOptions } from '../runners/operate/reconcileRun.js';
export { reconcileRun } from '../runners/operate/reconcileRun.js';
export type { RecoverableRuns, RecoverOptions } from '../runners/operate/recoverRuns.js';
export { recoverRuns } from '../runners/operate/recoverRuns.js';
export { CheckpointError, isCheckpointError } from '../stores/kit/CheckpointError.js';
export type { CheckpointRecord, CheckpointStore } from '../stores/kit/CheckpointStore.js';
export { MemoryCheckpointStore } from '../stores/memory/MemoryCheckpointStore.js';
