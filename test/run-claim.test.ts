import { describe, expect, it } from 'vitest';
import { checkClaim, claimHolder, type RunClaim } from '../src/stores/kit/runClaim.js';

// One rule decides whether a claim may be taken: resumeLoop and runPipeline throw on it
// (checkClaim), recoverRuns reports the holder instead (claimHolder).

const NOW = Date.UTC(2026, 0, 1);
const SELF = 'pid 1/self';
const live = (owner: string): RunClaim => ({ owner, expiresAt: NOW + 5_000 });
const lapsed = (owner: string): RunClaim => ({ owner, expiresAt: NOW });

describe('claimHolder', () => {
  it.each<[string, RunClaim, string | undefined, boolean, 'other' | 'self' | undefined]>([
    ["another writer's live claim", live('pid 2/other'), SELF, false, 'other'],
    ["another writer's live claim, no self", live('pid 2/other'), undefined, false, 'other'],
    ["another writer's lapsed claim", lapsed('pid 2/other'), SELF, false, undefined],
    ['our own live claim from an earlier life', live(SELF), SELF, false, undefined],
    ['our own live claim on a run driven here', live(SELF), SELF, true, 'self'],
    ['our own lapsed claim on a run driven here', lapsed(SELF), SELF, true, undefined],
  ])('%s', (_name, claim, self, liveHere, holder) => {
    expect(claimHolder(claim, NOW, self, liveHere)).toBe(holder);
    const check = () => checkClaim('r1', claim, NOW, self, liveHere);
    if (holder === undefined) expect(check).not.toThrow();
    else expect(check).toThrow(expect.objectContaining({ code: 'conflict', runId: 'r1' }));
  });

  it('checkClaim names the holder in the message it throws', () => {
    expect(() =>
      checkClaim('r1', live('pid 2/other'), NOW, SELF),
    ).toThrowErrorMatchingInlineSnapshot(
      `[CheckpointError: loopchart: run 'r1' is being driven by another writer (pid 2/other); its claim holds for 5000 ms more unless renewed, so nothing was run. If that writer died, resume after 2026-01-01T00:00:05.000Z]`,
    );
    expect(() => checkClaim('r1', live(SELF), NOW, SELF, true)).toThrowErrorMatchingInlineSnapshot(
      `[CheckpointError: loopchart: run 'r1' is claimed by this process's own claimOwner (pid 1/self) and this process is driving it right now, so nothing was run]`,
    );
  });
});
