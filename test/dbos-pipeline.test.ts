/**
 * A diamond pipeline (top → left, right → bottom) on DBOS across real processes: the process
 * running it is SIGKILLed while the non-idempotent `left` stage is in flight, another process
 * recovers it with `recoverExecutor`; `left`'s loop ends `unknown_outcome` instead of acting twice,
 * the pipeline pauses on the failed stage, and a retry answered from the other process completes it
 * with every other stage's effect recorded once. A stage loop waiting for review shows as the
 * pipeline's `stage_paused` pause and takes its answer through the pipeline; a cancelled pipeline
 * reads as `aborted`, its waiting stage cancelled with it.
 */
import type { LoopOutcome } from 'loopchart';
import type { PipelineOutcome } from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { readJournals } from './dbos/dbosHarness.js';
import { dbosTestbed } from './dbos/dbosTestbed.js';
import { postgresReachable } from './support/postgresServer.js';

const reachable = await postgresReachable();
const bed = dbosTestbed('pipeline', reachable);

describe.runIf(reachable)('a diamond pipeline on DBOS', () => {
  it('recovers a stage killed mid-flight honestly and completes after a retry', async () => {
    const start = (executor: string) => bed.start(executor, { STEP_MS: '40' });
    const [victim, rescuer] = [await start('pa'), await start('pb')];
    await victim.command('start', { loop: 'diamond', runId: 'd1', input: 'q3' });
    // kill it once `right`'s workflow has succeeded and `left` (25 times slower) is in flight; it
    // is frozen while its journal is read, so the journal then is the journal at the kill
    await vi.waitFor(
      async () => {
        const right = await rescuer.command<{ status: string | null }>('status', {
          runId: 'd1.right.1',
        });
        await victim.freeze();
        const left = readJournals(bed.base, ['pa']).filter((e) => e.loop === 'stage:left');
        if (right.status === 'SUCCESS' && left.length === 1 && left[0]?.type === 'effect') return;
        victim.thaw();
        throw new Error(`never saw right done while left was in flight: ${victim.errors()}`);
      },
      { timeout: 60_000, interval: 10 },
    );
    await victim.kill();
    const atKill = readJournals(bed.base, ['pa']);
    expect(atKill.filter((e) => e.loop === 'stage:left')).toHaveLength(1);
    expect(atKill.some((e) => e.loop === 'stage:bottom')).toBe(false);

    const recovered = await rescuer.command<{ ids: string[] }>('recover', { executor: 'pa' });
    expect(recovered.ids).toEqual(expect.arrayContaining(['d1', 'd1.left.1']));

    type Pause = { pause: number; state: string; pending: { reason: string } };
    const readPause = async () =>
      (
        await rescuer.command<{ pending: Pause | null }>('pending', {
          loop: 'diamond',
          runId: 'd1',
        })
      ).pending;
    const pause = await vi.waitFor(
      async () => {
        const read = await readPause();
        if (!read) throw new Error('the pipeline never paused');
        return read;
      },
      { timeout: 60_000, interval: 25 },
    );
    expect(pause).toMatchObject({
      state: 'layer2.stageFailed',
      pending: { reason: 'stage_failed' },
    });
    const left1 = await rescuer.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'slow',
      runId: 'd1.left.1',
    });
    expect(left1.outcome).toMatchObject({
      status: 'unknown_outcome',
      error: { cause: { step: 'attempt' } },
    });

    await rescuer.command('answer', {
      loop: 'diamond',
      runId: 'd1',
      event: { type: 'pipeline.retry', stage: 'left' },
      pause: pause?.pause,
    });
    const { outcome } = await rescuer.command<{ outcome: PipelineOutcome }>('outcome', {
      loop: 'diamond',
      runId: 'd1',
    });
    expect(outcome).toMatchObject({ status: 'completed', ok: true });
    expect(Object.keys(outcome.results).sort()).toEqual(['bottom', 'left', 'right', 'top']);

    const effects = readJournals(bed.base, ['pa', 'pb']).filter((e) => e.type === 'effect');
    const count = (stage: string) => effects.filter((e) => e.loop === `stage:${stage}`).length;
    expect([count('top'), count('right'), count('bottom')]).toEqual([1, 1, 1]);
    expect(effects.filter((e) => e.loop === 'stage:left').map((e) => e.runId)).toEqual([
      'd1.left.1',
      'd1.left.2',
    ]);
  }, 120_000);

  it("shows a stage loop's pause as the pipeline's, answers it from another process, and cancels", async () => {
    const [a, b] = [await bed.start('ra'), await bed.start('rb')];
    type Pause = { pause: number; state: string; pending: Record<string, unknown> };
    const pendingOf = (runId: string) =>
      vi.waitFor(
        async () => {
          const { pending } = await b.command<{ pending: Pause | null }>('pending', {
            loop: 'reviewedStage',
            runId,
          });
          if (!pending) throw new Error(`${runId} never paused`);
          return pending;
        },
        { timeout: 60_000, interval: 25 },
      );
    const answer = (runId: string, event: unknown) =>
      b.command('answer', { loop: 'reviewedStage', runId, event }).then(
        () => 'sent',
        (error: { code?: string }) => error.code,
      );

    await a.command('start', { loop: 'reviewedStage', runId: 'r1', input: 'memo' });
    expect(await pendingOf('r1')).toMatchObject({
      state: 'stagePaused',
      pending: {
        reason: 'stage_paused',
        layer: 1,
        stages: ['draft'],
        pending: { draft: { kind: 'review', candidate: 'draft("memo")' } },
      },
    });
    expect(await answer('r1', { type: 'review.continue', stage: 'publish' })).toBe('not_waiting');
    expect(await answer('r1', { type: 'clarification.answer', stage: 'draft' })).toBe('refused');
    expect(await answer('r1', { type: 'review.continue', stage: 'draft' })).toBe('sent');
    const { outcome } = await b.command<{ outcome: PipelineOutcome }>('outcome', {
      loop: 'reviewedStage',
      runId: 'r1',
    });
    expect(outcome).toMatchObject({
      status: 'completed',
      ok: true,
      results: { draft: 'draft("memo")', publish: 'publish({"draft":"draft(\\"memo\\")"})' },
    });

    await a.command('start', { loop: 'reviewedStage', runId: 'r2', input: 'memo' });
    await pendingOf('r2');
    await b.command('cancel', { loop: 'reviewedStage', runId: 'r2' });
    const cancelled = await b.command<{ outcome: PipelineOutcome }>('outcome', {
      loop: 'reviewedStage',
      runId: 'r2',
    });
    expect(cancelled.outcome).toMatchObject({
      status: 'aborted',
      ok: false,
      abortReason: 'the pipeline was cancelled through DBOS',
      stages: {
        draft: { status: 'aborted', runs: 1, note: expect.stringMatching(/^aborted while paused/) },
        publish: { status: 'not_started' },
      },
    });
    const stage = await b.command<{ status: string | null }>('status', { runId: 'r2.draft.1' });
    expect(stage.status).toBe('CANCELLED');
  }, 120_000);
});
