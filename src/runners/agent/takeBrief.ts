import {
  CheckpointError,
  failureMessage,
  isCheckpointError,
} from '../../stores/kit/CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { checkClaim, keepClaim, type RunClaim } from '../../stores/kit/runClaim.js';
import { checkIfSeq } from '../loop/checkIfSeq.js';
import type { ShapeDecision } from './routeShape.js';
import { decisionOfAnswer, type ShapeChoiceBrief } from './shapeChoice.js';
import type { Shape } from './shapes.js';

/**
 * The mark of an answered brief (field `taken` of the stored brief): the shape chosen. While the
 * answer's writer starts that shape the row also carries its `claim`, as every working checkpoint
 * does (renewed until the shape's run saves its first checkpoint over the row); a taken brief
 * without a claim is one whose run ended before the shape's run saved anything.
 */
export interface TakenBrief {
  shape: Shape;
  /** How the run ended when the shape's run saved nothing (planning failed, aborted). */
  status?: string;
}

/** An answer that took the brief: the decision to run, and the row's hand-over. */
export interface BriefHold {
  decided: ShapeDecision;
  /** Stops renewing the claim; resolves to the seq the shape's run saves after. */
  handOver(): Promise<number>;
  /**
   * The run ended: marks the brief answered and ended unless the shape's run saved over it (then
   * the store refuses this save, as it should, and that is not an error).
   */
  finish(status: string): Promise<void>;
  /** The run failed before its shape saved: stops renewing, so the claim lapses for a recoverer. */
  drop(): void;
}

/**
 * Takes a stored brief for one answer, exactly once (SPEC §6, one writer per run): checks
 * `ifSeq`, a live claim of another answer, and the answer itself (each refusal leaves the row
 * byte-identical), then saves the brief again as record `seq + 1`, marked taken under this
 * writer's claim, by the store's compare-and-set. Of answers arriving at once, one save lands;
 * the others reject with `CheckpointError` `conflict` before anything runs. A brief whose
 * answer's writer died (its claim lapsed, or is `claim.self`'s) is taken again.
 * @example const hold = await takeBrief(store, stored, brief, { ifSeq: 1, event, claim });
 */
export async function takeBrief(
  store: CheckpointStore,
  stored: CheckpointRecord,
  brief: ShapeChoiceBrief & { taken?: TakenBrief; claim?: RunClaim },
  options: {
    ifSeq?: number | undefined;
    event: unknown;
    claim: { owner: string; ttlMs: number; self?: string | undefined };
  },
): Promise<BriefHold> {
  const { runId } = stored;
  const { claim } = options;
  checkIfSeq(runId, stored.seq, options.ifSeq);
  if (brief.taken) {
    if (!brief.claim) throw answered(runId, brief.taken);
    checkClaim(runId, brief.claim, Date.now(), claim.self);
  }
  const decided = decisionOfAnswer(brief, options.event);
  const { taken: _, claim: _claim, ...open } = brief;
  let seq = stored.seq;
  const write = (
    taken: TakenBrief & { claim?: RunClaim },
    status: 'running' | 'done',
    state: string,
  ) => {
    const record = {
      ...stored,
      seq: seq + 1,
      status,
      state,
      updatedAt: Date.now(),
      data: JSON.stringify({
        ...open,
        taken: { shape: taken.shape, ...(taken.status ? { status: taken.status } : {}) },
        ...(taken.claim ? { claim: taken.claim } : {}),
      }),
    };
    return store.save(record).then(() => {
      seq = record.seq;
    });
  };
  const claimed = () => ({
    shape: decided.shape,
    claim: { owner: claim.owner, expiresAt: Date.now() + claim.ttlMs },
  });
  await write(claimed(), 'running', 'shapeChosen').catch((error: unknown) => {
    throw lost(runId, error);
  });
  // renewed while the shape starts (a planner may take longer than the claim's time to live)
  let renewal: Promise<void> = Promise.resolve();
  const stop = keepClaim(claim.ttlMs, () => {
    renewal = renewal.then(() => write(claimed(), 'running', 'shapeChosen')).catch(() => {});
  });
  const stopped = async () => {
    stop();
    await renewal;
    return seq;
  };
  return {
    decided,
    handOver: stopped,
    finish: async (status) => {
      await stopped();
      await write({ shape: decided.shape, status }, 'done', status).catch((error: unknown) => {
        if (isCheckpointError(error) && error.code === 'conflict') return;
        throw new CheckpointError(
          'save_failed',
          runId,
          `loopchart: run '${runId}' ended ${status}, but marking its brief answered failed (${failureMessage(error)}); the brief stays claimed until its claim lapses`,
          { cause: error },
        );
      });
    },
    drop: stop,
  };
}

function answered(runId: string, taken: TakenBrief): CheckpointError {
  return new CheckpointError(
    'conflict',
    runId,
    `loopchart: run '${runId}' was already answered (${taken.shape}, ended ${taken.status ?? 'unknown'}), so this answer was not applied`,
  );
}

/** A save of the taken brief that did not land: another answer took it (`conflict`), or the store failed. */
function lost(runId: string, error: unknown): CheckpointError {
  if (isCheckpointError(error) && error.code === 'conflict') {
    return new CheckpointError(
      'conflict',
      runId,
      `loopchart: run '${runId}': another answer took this brief first, so this one ran nothing`,
      { cause: error },
    );
  }
  return new CheckpointError(
    'save_failed',
    runId,
    `loopchart: run '${runId}': saving the answered brief failed (${failureMessage(error)}); nothing ran`,
    { cause: error },
  );
}
