import { type Clock, monotonicClock } from '../../core/vocabulary/clock.js';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import { CheckpointError } from './CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from './CheckpointStore.js';

/**
 * One writer per run (SPEC §6). Every checkpoint a working run saves names its writer and how
 * long that claim holds (`claim` in the checkpoint); the writer renews it by saving again before
 * it expires, and drops it when the run pauses or ends. A resumer refuses a working run whose
 * claim is another writer's and has not expired; the store's compare-and-set on `seq` settles two
 * resumers that arrive at the same instant. So the claim works on every store, yours included.
 */
export interface RunClaim {
  /** Who drives the run: a random id per drive, with the process id where there is one. */
  owner: string;
  /** When the claim lapses unless renewed, in ms since the epoch (the writer's clock). */
  expiresAt: number;
}

/** How long a claim holds without renewal unless `claimTtlMs` says otherwise. */
export const DEFAULT_CLAIM_TTL_MS = 30_000;

/** A fresh owner id for one drive of a run. */
export function newClaimOwner(): string {
  const pid = (globalThis as { process?: { pid?: number } }).process?.pid;
  return `${pid === undefined ? 'js' : `pid ${pid}`}/${globalThis.crypto.randomUUID()}`;
}

/**
 * Throws `CheckpointError` `conflict` when a live writer still holds the run; a claim whose
 * writer stopped renewing it (it died) is taken over once it has expired, and a claim held under
 * `self` (this process's stable `claimOwner`, so its own earlier life) at once, unless this
 * process is still driving the run (`liveHere`, from `drivenHere`).
 */
export function checkClaim(
  runId: string,
  claim: RunClaim | undefined,
  now = Date.now(),
  self?: string,
  liveHere = false,
): void {
  if (!claim) return;
  const holder = claimHolder(claim, now, self, liveHere);
  if (holder === undefined) return;
  if (holder === 'self') {
    throw new CheckpointError(
      'conflict',
      runId,
      `loopchart: run '${runId}' is claimed by this process's own claimOwner (${self}) and this process is driving it right now, so nothing was run`,
    );
  }
  throw new CheckpointError(
    'conflict',
    runId,
    `loopchart: run '${runId}' is being driven by another writer (${claim.owner}); its claim holds for ${claim.expiresAt - now} ms more unless renewed, so nothing was run. If that writer died, resume after ${new Date(claim.expiresAt).toISOString()}`,
  );
}

/**
 * Who keeps a resumer from taking `claim` at `now` (`checkClaim`'s rule): `'other'`, a writer
 * that has not let it expire, or `'self'`, this process driving the run under `self` right now
 * (`liveHere`); `undefined` when the claim may be taken.
 */
export function claimHolder(
  claim: RunClaim,
  now: number,
  self: string | undefined,
  liveHere: boolean,
): 'other' | 'self' | undefined {
  if (claim.expiresAt <= now) return undefined;
  if (self !== undefined && claim.owner === self) return liveHere ? 'self' : undefined;
  return 'other';
}

/** Saves `renew` every third of the claim's time to live until the returned stop is called. */
export function keepClaim(ttlMs: number, renew: () => void): () => void {
  const timer = setInterval(renew, Math.max(1, Math.floor(ttlMs / 3)));
  return () => clearInterval(timer);
}

/** How long releasing a claim may take before it is left to expire. */
const RELEASE_MS = 500;

/**
 * Drops this writer's claim after one of its saves failed (SPEC §16), so resuming at once is not
 * refused as another writer's: saves `last`, the record the store acknowledged last, again as
 * record `seq` without its claim. Best effort and bounded: a store that fails again, or does not
 * answer within half a second, leaves the claim to expire; a store someone else wrote meanwhile
 * refuses it (`seq`), as it should.
 */
export async function releaseClaim(
  store: CheckpointStore,
  last: CheckpointRecord | undefined,
  seq: number,
  clock: Clock = monotonicClock,
): Promise<void> {
  const data = last && (JSON.parse(last.data) as { claim?: unknown; seq?: unknown });
  if (!last || data?.claim === undefined) return; // paused, done, or nothing of ours stored
  const { claim: _, ...unclaimed } = data;
  const record = {
    ...last,
    seq,
    updatedAt: Date.now(),
    data: JSON.stringify('seq' in unclaimed ? { ...unclaimed, seq } : unclaimed),
  };
  const timeout = () => new Error('the store did not answer');
  await withTimeLimit(() => store.save(record), { ms: RELEASE_MS, timeout, clock }).catch(() => {});
}
