import { z } from 'zod';
import type { LoopContext, PendingRequest } from '../../core/chart/loopContext.js';
import { loopView } from '../../core/chart/loopView.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import { CheckpointError } from './CheckpointError.js';
import { type CheckpointRecord, RUN_STATUSES, type RunStatus } from './CheckpointStore.js';
import { loopRunProblem } from './loopRunProblem.js';
import { pendingSchema } from './loopRunSchema.js';
import type { RunClaim } from './runClaim.js';

/** The checkpoint format this loopchart writes and reads. */
export const CHECKPOINT_FORMAT = 1;

/** A persisted XState snapshot: plain JSON, restorable with `createActor(machine, { snapshot })`. */
export interface PersistedSnapshot {
  status: string;
  value: unknown;
  context: Record<string, unknown>;
  children?: Record<string, { snapshot?: { status?: string; input?: unknown }; src?: unknown }>;
  output?: unknown;
  [key: string]: unknown;
}

/**
 * Why a run is parked: its process died while `step` (not idempotent) was in flight, so the step
 * may or may not have acted. The snapshot still holds the step in flight; `reconcileRun` settles
 * it with what really happened.
 */
export interface ParkedStep {
  reason: 'unknown_outcome';
  step: 'attempt' | 'validate' | 'refine' | 'fallback';
  /** When it was parked, in ms since the epoch. */
  since: number;
  message: string;
}

/** What `data` holds: the format, who wrote it, where the run is, its trace and the snapshot. */
export interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  runId: string;
  machineId: string;
  /** `machineFingerprint` of the machine that wrote it. */
  machine: string;
  seq: number;
  savedAt: number;
  status: RunStatus;
  state: string;
  /** The question or review request of a paused run. */
  pending?: PendingRequest;
  /** The writer driving a working run, and until when (absent once it pauses or ends). */
  claim?: RunClaim;
  /** Set on a run parked with a step in flight whose effect is unknown (status `paused`). */
  parked?: ParkedStep;
  trace: TraceEntry[];
  /** The persisted snapshot, its `context.trace` (and `output.trace`) included again on decode. */
  snapshot: PersistedSnapshot;
}

const checkpointSchema = z.looseObject({
  format: z.literal(CHECKPOINT_FORMAT),
  runId: z.string(),
  machineId: z.string(),
  machine: z.string().min(1),
  seq: z.number().int().min(1),
  savedAt: z.number(),
  status: z.enum(RUN_STATUSES),
  state: z.string(),
  pending: pendingSchema.optional(),
  claim: z.object({ owner: z.string(), expiresAt: z.number() }).optional(),
  parked: z
    .object({
      reason: z.literal('unknown_outcome'),
      step: z.enum(['attempt', 'validate', 'refine', 'fallback']),
      since: z.number(),
      message: z.string(),
    })
    .optional(),
  trace: z.array(z.looseObject({ seq: z.number(), state: z.string() })),
  snapshot: z.looseObject({
    status: z.enum(['active', 'done']),
    value: z.unknown(),
    context: z.looseObject({ settings: z.looseObject({}) }),
  }),
});

/** The fields of a checkpoint that the runner supplies; the rest comes from the snapshot. */
export interface CheckpointHeader {
  runId: string;
  machineId: string;
  machine: string;
  seq: number;
  paused: boolean;
  /** The writer's claim, kept only while the run works. */
  claim?: RunClaim | undefined;
}

/** Turns a persisted snapshot into a store record (the trace is kept once, at the top). */
export function encodeCheckpoint(header: CheckpointHeader, snapshot: PersistedSnapshot) {
  const { trace = [], ...context } = snapshot.context as { trace?: TraceEntry[] };
  const output = withoutTrace(snapshot.output);
  const status: RunStatus =
    snapshot.status === 'done' ? 'done' : header.paused ? 'paused' : 'running';
  const state = stateName(snapshot.value);
  const pending = status === 'paused' ? loopView(snapshot)?.pending : undefined;
  const { paused: _, claim, ...fields } = header;
  const savedAt = Date.now();
  const checkpoint = {
    format: CHECKPOINT_FORMAT,
    ...fields,
    savedAt,
    status,
    state,
    ...(pending === undefined ? {} : { pending }),
    ...(claim === undefined || status !== 'running' ? {} : { claim }),
    trace,
    snapshot: { ...snapshot, context, ...(output === undefined ? {} : { output }) },
  };
  const record: CheckpointRecord = {
    runId: header.runId,
    seq: header.seq,
    status,
    state,
    machineId: header.machineId,
    updatedAt: savedAt,
    data: JSON.stringify(checkpoint),
  };
  return record;
}

/** What a decoded checkpoint must match: the machine about to continue it. */
export interface ExpectedMachine {
  machineId: string;
  fingerprint: string;
  settings: unknown;
}

/**
 * Parses and checks a stored record. Throws `CheckpointError` `corrupt` (not JSON, not a
 * checkpoint, or not a valid loop run: a state the machine lacks, a context, trace or outcome of
 * the wrong shape), `unknown_version`, or, given `expected`, `other_machine` (and `corrupt` when
 * its counters exceed the expected bounds). Never changes the record.
 * @example const checkpoint = decodeCheckpoint(await store.load('run-1'));
 */
export function decodeCheckpoint(record: CheckpointRecord, expected?: ExpectedMachine): Checkpoint {
  const { runId } = record;
  const refuse = (code: 'corrupt' | 'unknown_version' | 'other_machine', why: string) =>
    new CheckpointError(code, runId, `loopchart: the checkpoint of run '${runId}' ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(record.data);
  } catch (error) {
    throw refuse('corrupt', `is corrupt: its data is not JSON (${messageOf(error)})`);
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format !== CHECKPOINT_FORMAT) {
    throw refuse(
      'unknown_version',
      `has format version ${format}; this loopchart reads version ${CHECKPOINT_FORMAT}`,
    );
  }
  const parsed = checkpointSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw refuse('corrupt', `is corrupt: ${where}: ${issue?.message ?? 'not a checkpoint'}`);
  }
  const checkpoint = parsed.data as unknown as Checkpoint;
  if (checkpoint.runId !== runId) {
    throw refuse('corrupt', `is corrupt: it holds run '${describeValue(checkpoint.runId)}'`);
  }
  const problem = loopRunProblem(checkpoint);
  if (problem) throw refuse('corrupt', `is corrupt: ${problem}`);
  if (expected) checkMachine(checkpoint, expected, refuse);
  const { snapshot, trace } = checkpoint;
  // a run continues with the bounds of the config resuming it: the row's copy is never trusted
  const settings = expected ? { settings: expected.settings } : {};
  snapshot.context = { ...snapshot.context, ...settings, trace };
  if (snapshot.output !== undefined) snapshot.output = { ...(snapshot.output as object), trace };
  return checkpoint;
}

function checkMachine(
  checkpoint: Checkpoint,
  expected: ExpectedMachine,
  refuse: (code: 'other_machine' | 'corrupt', why: string) => CheckpointError,
) {
  if (checkpoint.machineId !== expected.machineId) {
    throw refuse(
      'other_machine',
      `was written by machine '${checkpoint.machineId}', not '${expected.machineId}'`,
    );
  }
  if (checkpoint.machine === expected.fingerprint) {
    const beyond = beyondBounds(checkpoint.snapshot.context, expected.settings as LoopSettings);
    if (beyond) throw refuse('corrupt', `is corrupt: ${beyond}`);
    return;
  }
  const changed = changedKeys(loopView(checkpoint)?.settings, expected.settings);
  const what = changed.length
    ? `its settings differ (${changed.join(', ')})`
    : 'its states, transitions or guards differ';
  throw refuse(
    'other_machine',
    `was written by another definition of machine '${expected.machineId}': ${what}. A run resumes only with the definition that started it`,
  );
}

/** A counter of a stored run past the bounds the config sets (a run never gets there). */
function beyondBounds(
  context: Record<string, unknown>,
  settings: LoopSettings,
): string | undefined {
  const { retryCount, attempts, ledger } = context as unknown as LoopContext;
  if (retryCount > settings.maxRetries) {
    return `snapshot.context.retryCount: ${retryCount} refines, past maxRetries ${settings.maxRetries}`;
  }
  if (attempts > settings.maxAttempts) {
    return `snapshot.context.attempts: ${attempts}, past maxAttempts ${settings.maxAttempts}`;
  }
  const left = ledger.deadlineLeftMs;
  if (left !== null && (settings.deadlineMs === null || left > settings.deadlineMs)) {
    return `snapshot.context.ledger.deadlineLeftMs: ${left} ms left, past deadlineMs ${settings.deadlineMs}`;
  }
  return undefined;
}

function changedKeys(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]))
    .map((key) => `${key}: ${describeValue(a[key], 40)} → ${describeValue(b[key], 40)}`);
}

function withoutTrace(output: unknown): unknown {
  if (typeof output !== 'object' || output === null || !('trace' in output)) return output;
  const { trace: _, ...rest } = output as Record<string, unknown>;
  return rest;
}

function stateName(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
