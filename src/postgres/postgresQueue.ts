import type pg from 'pg';
import { LoopConfigError } from '../LoopConfigError.js';
import type { LoopEvent } from '../machines/loopEvents.js';
import { CheckpointError } from '../persistence/CheckpointError.js';
import type { ClaimedRun, NewRun, QueueEntry, QueueState } from '../worker/RunQueue.js';
import type { queueSql } from './queueSql.js';

/** A queue row as the claim, renew and entry statements return it (each a subset). */
export interface QueueRow {
  run_id: string;
  loop: string;
  input: string | null;
  state: QueueState;
  event: string | null;
  event_seq: number | null;
  abort_reason: string | null;
  lease_owner: string | null;
  lease_token: number;
  claims: number;
  outcome: string | null;
  error: string | null;
  expires_at: number;
  enqueued_at: number;
  updated_at: number;
}

/** Checks runs to enqueue (throws `LoopConfigError` naming the field) and lays them out in columns. */
export function queuedRows(runs: readonly NewRun[]) {
  const runIds: string[] = [];
  const loops: string[] = [];
  const inputs: (string | null)[] = [];
  runs.forEach((run, i) => {
    const at = runs.length === 1 ? '' : `runs[${i}].`;
    const runId = run?.runId ?? globalThis.crypto.randomUUID();
    const problems: string[] = [];
    if (typeof runId !== 'string' || runId.length === 0 || runId.length > 200) {
      problems.push(`  - ${at}runId: must be a string of 1 to 200 characters`);
    }
    if (typeof run?.loop !== 'string' || run.loop.length === 0 || run.loop.length > 200) {
      problems.push(`  - ${at}loop: must name one of the workers' loops (1 to 200 characters)`);
    }
    let input: string | undefined | null = null;
    try {
      input = run?.input === undefined ? null : JSON.stringify(run.input);
    } catch {
      input = undefined;
    }
    if (input === undefined) problems.push(`  - ${at}input: must be JSON-safe`);
    if (problems.length) {
      throw new LoopConfigError(`loopchart: invalid run to enqueue\n${problems.join('\n')}`);
    }
    runIds.push(runId);
    loops.push(run.loop);
    inputs.push(input ?? null);
  });
  return { runIds, loops, inputs };
}

/** A unique violation on enqueue as a `CheckpointError` `conflict` naming the run. */
export function alreadyQueued(error: unknown, runIds: readonly string[]): unknown {
  if ((error as { code?: unknown } | null)?.code !== '23505') return error;
  const detail = String((error as { detail?: unknown }).detail ?? '');
  const runId = /\(run_id\)=\((.*)\) already exists/.exec(detail)?.[1] ?? runIds[0] ?? '';
  return new CheckpointError(
    'conflict',
    runId,
    `loopchart: run '${runId}' is queued already (a run is queued once; send() answers a paused one)`,
    { cause: error },
  );
}

/** A claimed row as a `ClaimedRun`, or why it cannot be driven. */
export function claimedRun(row: QueueRow, owner: string, seq: number): ClaimedRun | string {
  let input: unknown;
  try {
    input = row.input === null ? undefined : JSON.parse(row.input);
  } catch {
    return 'its stored input is not JSON';
  }
  const lease = { runId: row.run_id, owner, token: row.lease_token, expiresAt: row.expires_at };
  const { run_id: runId, loop, claims } = row;
  const run: ClaimedRun = { runId, loop, input, seq, claims, lease };
  // An answer is for one checkpoint: once the run moved past it, the answer was consumed.
  if (row.event !== null && row.event_seq === seq) run.event = JSON.parse(row.event) as LoopEvent;
  if (row.abort_reason !== null) run.abortReason = row.abort_reason;
  return run;
}

export function toEntry(row: QueueRow): QueueEntry {
  return {
    runId: row.run_id,
    loop: row.loop,
    state: row.state,
    owner: row.lease_owner,
    claims: row.claims,
    outcome: row.outcome,
    error: row.error,
    enqueuedAt: row.enqueued_at,
    updatedAt: row.updated_at,
  };
}

/** The paused state each answer is for. */
const ANSWERS: Record<string, string> = {
  'review.continue': 'awaitingReview',
  'review.modify': 'awaitingReview',
  'review.retry': 'awaitingReview',
  'review.abort': 'awaitingReview',
  'clarification.answer': 'awaitingClarification',
};

interface SendRow {
  state: QueueState;
  answered: boolean;
  outcome: string | null;
  seq: number | null;
  status: string | null;
  checkpoint_state: string | null;
}

/** Decides and records `send(runId, event)` inside the caller's transaction. */
export async function sendEvent(
  client: pg.PoolClient,
  sql: ReturnType<typeof queueSql>,
  runId: string,
  event: LoopEvent,
): Promise<void> {
  const type = (event as { type?: unknown } | null)?.type;
  const named = typeof type === 'string' ? type.slice(0, 80) : 'an event without a type';
  const row = (await client.query<SendRow>(sql.lockForSend, [runId])).rows[0];
  if (!row) {
    const why = `run '${runId}' is not queued (enqueue it, or resume it with resumeLoop)`;
    throw new CheckpointError('not_found', runId, `loopchart: ${why}`);
  }
  const refuse = (why: string) =>
    new CheckpointError(
      'not_waiting',
      runId,
      `loopchart: run '${runId}' ${why}; it cannot take ${named}`,
    );
  if (row.state === 'done') throw refuse(`has finished as ${row.outcome ?? 'done'}`);
  if (row.state === 'failed') throw refuse('failed (see its queue entry)');
  if (type === 'loop.abort') {
    const reason = (event as { reason?: unknown }).reason;
    if (row.state === 'paused' && row.seq !== null) {
      await client.query(sql.answer, [runId, JSON.stringify(event), row.seq]);
    } else {
      const why = typeof reason === 'string' ? reason : 'aborted by send(loop.abort)';
      await client.query(sql.abort, [runId, why]);
    }
    return;
  }
  const wants = typeof type === 'string' ? ANSWERS[type] : undefined;
  if (!wants) throw refuse('takes review.*, clarification.answer or loop.abort');
  if (row.answered) throw refuse('has an answer waiting for a worker already');
  if (row.state !== 'paused' || row.status !== 'paused' || row.seq === null) {
    throw refuse(`is working (${row.checkpoint_state ?? 'not started'}) and takes only loop.abort`);
  }
  if (row.checkpoint_state !== wants) {
    const expects =
      row.checkpoint_state === 'awaitingClarification' ? 'clarification.answer' : 'review.*';
    throw refuse(`waits in ${row.checkpoint_state} for ${expects}`);
  }
  let data: string;
  try {
    data = JSON.stringify(event);
  } catch (error) {
    throw new LoopConfigError(
      `loopchart: invalid event\n  - event: must be JSON-safe (${String(error)})`,
    );
  }
  await client.query(sql.answer, [runId, data, row.seq]);
}
