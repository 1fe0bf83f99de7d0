import type { z } from 'zod';
import { stepOfState } from '../../core/chart/loopContext.js';
import { PAUSE_STATES } from '../../core/chart/loopView.js';
import { isOkStatus, LOOP_STATUSES, type LoopStatus } from '../../core/vocabulary/statuses.js';
import type { PersistedSnapshot } from './checkpointFormat.js';
import {
  LOOP_PHASES,
  loopContextSchema,
  stepInputSchema,
  storedOutcomeSchema,
  traceEntrySchema,
} from './loopRunSchema.js';

/** The parts of a checkpoint that must agree with its snapshot. */
interface StoredRun {
  status: string;
  state: string;
  pending?: unknown;
  parked?: { step: string } | undefined;
  trace: unknown[];
  snapshot: PersistedSnapshot;
}

/**
 * Why a stored checkpoint is not a valid loop run (its snapshot in a state the loop machine does
 * not have, a context or trace of the wrong shape, a pause without its request, a status that
 * disagrees with the snapshot), or `undefined` when it is one.
 */
export function loopRunProblem(run: StoredRun): string | undefined {
  const { snapshot } = run;
  const value = snapshot.value;
  if (typeof value !== 'string') return 'snapshot.value: not a state of the loop machine';
  if (run.state !== value) return `state: '${run.state}' but the snapshot is in '${value}'`;
  const done = snapshot.status === 'done';
  const known: readonly string[] = done ? LOOP_STATUSES : LOOP_PHASES;
  if (!known.includes(value)) {
    return `snapshot.value: '${value.slice(0, 60)}' is not a ${done ? 'final' : 'working'} state of the loop machine`;
  }
  const paused = (PAUSE_STATES as readonly string[]).includes(value);
  const status = done ? 'done' : paused || run.parked ? 'paused' : 'running';
  if (run.status !== status) return `status: '${run.status}' but the snapshot is ${status}`;
  if (run.parked && !inFlight(snapshot, run.parked.step)) {
    return `parked: names ${run.parked.step}, but the snapshot has no such step in flight`;
  }
  const problem =
    issue('snapshot.context', loopContextSchema, snapshot.context) ??
    run.trace.map((entry, i) => issue(`trace.${i}`, traceEntrySchema, entry)).find(Boolean);
  if (problem) return problem;
  if (done) return outcomeProblem(value as LoopStatus, snapshot.output);
  if (paused) return pauseProblem(value, run.pending, snapshot.context.pending);
  const step = stepOfState(value);
  const child = step ? snapshot.children?.[step]?.snapshot : undefined;
  if (child?.status === 'active') {
    return issue(`snapshot.children.${step}.snapshot.input`, stepInputSchema, child.input);
  }
  return undefined;
}

function inFlight(snapshot: PersistedSnapshot, step: string): boolean {
  const value = snapshot.value;
  return (
    snapshot.status === 'active' &&
    stepOfState(value) === step &&
    snapshot.children?.[step]?.snapshot?.status === 'active'
  );
}

function outcomeProblem(status: LoopStatus, output: unknown): string | undefined {
  const problem = issue('snapshot.output', storedOutcomeSchema, output);
  if (problem) return problem;
  const outcome = output as { status: LoopStatus; ok: boolean; error?: unknown };
  if (outcome.status !== status) return `snapshot.output.status: not the final state '${status}'`;
  if (outcome.ok !== isOkStatus(status)) return `snapshot.output.ok: wrong for '${status}'`;
  if (!outcome.ok && outcome.error === undefined) return 'snapshot.output.error: missing';
  return undefined;
}

function pauseProblem(state: string, pending: unknown, inContext: unknown): string | undefined {
  const kind = state === 'awaitingReview' ? 'review' : 'clarification';
  for (const [where, request] of [
    ['pending', pending],
    ['snapshot.context.pending', inContext],
  ] as const) {
    if ((request as { kind?: unknown } | undefined)?.kind !== kind) {
      return `${where}: a run paused in ${state} must hold its ${kind} request`;
    }
  }
  return undefined;
}

function issue(where: string, schema: z.ZodType, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const first = parsed.error.issues[0];
  const path = [where, ...(first?.path ?? []).map(String)].join('.');
  return `${path}: ${first?.message ?? 'invalid'}`;
}
