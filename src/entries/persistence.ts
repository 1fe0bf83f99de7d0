// The kit for writing a CheckpointStore and for reading stored runs: `loopchart/persistence`.
// `CheckpointStore`, `CheckpointRecord`, `CheckpointError`, `MemoryCheckpointStore` and the run's
// `LoopSettings` / `PendingRequest` are on the main entry (no name is on two entries); the
// machine's context and step input are private: read a run through `loopView`.

export type { LoopPhase } from '../core/chart/loopContext.js';
export type { LoopGlance, LoopView, LoopViewStatus } from '../core/chart/loopView.js';
export { glanceLoop, loopView, PAUSE_STATES } from '../core/chart/loopView.js';
export { machineFingerprint } from '../core/chart/machineFingerprint.js';
export type { CheckpointErrorCode } from '../stores/kit/CheckpointError.js';
export { CHECKPOINT_ERROR_CODES, checkpointConflict } from '../stores/kit/CheckpointError.js';
export type {
  ListOptions,
  RunStatus,
  RunSummary,
  ScanOptions,
} from '../stores/kit/CheckpointStore.js';
export { RUN_STATUSES } from '../stores/kit/CheckpointStore.js';
export type { Checkpoint, ParkedStep, PersistedSnapshot } from '../stores/kit/checkpointFormat.js';
export { CHECKPOINT_FORMAT, decodeCheckpoint } from '../stores/kit/checkpointFormat.js';
export type { RunClaim } from '../stores/kit/runClaim.js';
export { DEFAULT_CLAIM_TTL_MS } from '../stores/kit/runClaim.js';
