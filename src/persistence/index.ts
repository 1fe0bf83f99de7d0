// The kit for writing a CheckpointStore and for reading stored runs: `loopchart/persistence`.
export type { LoopSettings } from '../config.js';
export type { LoopContext, LoopPhase, PendingRequest } from '../machines/loopContext.js';
export type { LoopGlance, LoopView, LoopViewStatus } from '../machines/loopView.js';
export { glanceLoop, loopView, PAUSE_STATES } from '../machines/loopView.js';
export type { StepInput } from '../machines/stepActors.js';
export type { CheckpointErrorCode } from './CheckpointError.js';
export {
  CHECKPOINT_ERROR_CODES,
  CheckpointError,
  checkpointConflict,
  isCheckpointError,
} from './CheckpointError.js';
export type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunStatus,
  RunSummary,
  ScanOptions,
} from './CheckpointStore.js';
export { RUN_STATUSES } from './CheckpointStore.js';
export type { Checkpoint, PersistedSnapshot } from './checkpointFormat.js';
export { CHECKPOINT_FORMAT, decodeCheckpoint } from './checkpointFormat.js';
export { MemoryCheckpointStore } from './MemoryCheckpointStore.js';
export { machineFingerprint } from './machineFingerprint.js';
export type { RunClaim } from './runClaim.js';
export { DEFAULT_CLAIM_TTL_MS } from './runClaim.js';
