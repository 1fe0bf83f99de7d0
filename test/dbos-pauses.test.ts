/**
 * Pauses, retry waits and cancellation of loop runs on DBOS, across real processes
 * (test/dbos/dbosChild.mjs) on a database of their own: a review pause answered from another
 * process (and malformed or stale answers refused there), a retry wait interrupted by SIGKILL that
 * waits only its remainder once the restarted process recovers its own run, and a run cancelled
 * through DBOS that reads as `aborted`.
 */
import type { LoopOutcome } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { unreadMessages } from './dbos/dbosDatabase.js';
import { readJournals } from './dbos/dbosHarness.js';
import { dbosTestbed } from './dbos/dbosTestbed.js';
import { postgresReachable } from './support/postgresServer.js';

const reachable = await postgresReachable();
const bed = dbosTestbed('pauses', reachable);
// long enough that a process started under load recovers its run well inside them
const RETRY_MS = 8000;
const DEADLINE_MS = 8000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const start = (executor: string) =>
  bed.start(executor, { RETRY_MS: String(RETRY_MS), DEADLINE_MS: String(DEADLINE_MS) });
const until = async <T>(read: () => Promise<T | undefined> | T | undefined, ms = 60_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(25);
  }
};
/**
 * When `executor`'s latest process began DBOS.launch(), which recovers its runs: a wait or deadline
 * restarted by the recovery starts no sooner. Later than the spawn by as long as a loaded machine
 * takes to start node and load DBOS, so that time does not count against the bounds below.
 */
const launchedAt = (executor: string) =>
  readJournals(bed.base, [executor])
    .filter((e) => e.type === 'launching')
    .at(-1)?.at ?? 0;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'sent',
    (error: { code?: string }) => error.code,
  );

describe.runIf(reachable)('loop runs on DBOS that wait', () => {
  it('publishes a review pause and takes its answer from another process', async () => {
    const [a, b] = [await start('pa'), await start('pb')];
    const input = { name: 'memo', refines: 0 };
    await a.command('start', { loop: 'reviewed', runId: 'review-1', input });
    const { pending } = await until(async () => {
      const read = await b.command<{
        pending: {
          pause: number;
          state: string;
          pending: { kind: string; candidate: unknown };
        } | null;
      }>('pending', { loop: 'reviewed', runId: 'review-1' });
      return read.pending ? read : undefined;
    });
    expect(pending).toMatchObject({
      pause: 1,
      state: 'awaitingReview',
      pending: { kind: 'review', candidate: 'draft 1 of memo' },
    });

    const answer = (event: unknown, pause?: number) =>
      refusal(b.command('answer', { loop: 'reviewed', runId: 'review-1', event, pause }));
    expect(await answer({ type: 'clarification.answer', answer: 'x' })).toBe('refused');
    expect(await answer({ type: 'review.modify' })).toBe('refused');
    expect(await answer('continue')).toBe('refused');
    // resumeLoop's own answer check: the config's schema, and one edit at a time
    expect(await answer({ type: 'review.modify', candidate: 42 })).toBe('refused');
    expect(await answer({ type: 'review.modify', candidate: 'a', input: 'b' })).toBe('refused');
    expect(await answer({ type: 'review.continue' }, 7)).toBe('not_waiting');
    // sent around answer(), straight to the topic: the workflow drops it and keeps waiting
    const sendRaw = async (message: unknown) => {
      await b.command('send', { runId: 'review-1', message });
      await until(async () =>
        (await unreadMessages(bed.url, 'review-1')) === 0 ? true : undefined,
      );
    };
    await sendRaw({ event: { type: 'review.modify' }, pause: 1 });
    await sendRaw({ event: { type: 'review.continue' }, pause: 2 });
    // the workflow takes one message at a time: once it took this one, it had dropped both above
    await sendRaw({ event: 'probe', pause: 1 });
    const still = await b.command<{ pending: { pause: number } | null }>('pending', {
      loop: 'reviewed',
      runId: 'review-1',
    });
    expect(still.pending).toMatchObject({ pause: 1 });
    expect(await answer({ type: 'review.continue' }, 1)).toBe('sent');

    const { outcome } = await a.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'reviewed',
      runId: 'review-1',
    });
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'draft 1 of memo', attempts: 1 });
    expect(await answer({ type: 'review.continue' }, 1)).toBe('not_waiting');
    expect(
      await refusal(
        b.command('answer', {
          loop: 'reviewed',
          runId: 'nope',
          event: { type: 'review.continue' },
        }),
      ),
    ).toBe('not_found');
  }, 120_000);

  it('waits out only the remainder of a retry wait after a SIGKILL and a restart', async () => {
    const victim = await start('retry');
    await victim.command('start', {
      loop: 'retrying',
      runId: 'retry-1',
      input: { name: 'r', refines: 0 },
    });
    const first = await until(() =>
      readJournals(bed.base, ['retry']).find((e) => e.runId === 'retry-1' && e.attempt === 1),
    );
    await sleep(1000);
    await victim.kill();
    const restarted = await start('retry'); // DBOS.launch() recovers this executor's own runs
    const relaunchedAt = launchedAt('retry');
    const { outcome } = await restarted.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'retrying',
      runId: 'retry-1',
    });
    // recovery puts the run back on DBOS's internal queue: any live process may take it
    const everyone = bed.processes.map((p) => p.executor);
    const second = readJournals(bed.base, everyone).find(
      (e) => e.runId === 'retry-1' && e.attempt === 2,
    );
    expect(outcome).toMatchObject({
      status: 'proceed',
      candidate: 'second time lucky',
      attempts: 2,
    });
    const waited = (second?.at ?? 0) - first.at;
    // the retry asked for RETRY_MS from the first attempt; a fresh wait after recovery would end
    // no sooner than RETRY_MS after the relaunch (≥ 1 s later)
    expect(waited).toBeGreaterThanOrEqual(RETRY_MS - 50);
    expect(second?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(relaunchedAt + RETRY_MS);
  }, 120_000);

  it("counts deadlineMs from the run's first start, not from its recovery", async () => {
    const victim = await start('deadline');
    const startedAt = Date.now();
    await victim.command('start', {
      loop: 'deadlined',
      runId: 'deadline-1',
      input: { name: 'd', refines: 0 },
    });
    await until(() => readJournals(bed.base, ['deadline']).find((e) => e.runId === 'deadline-1'));
    await sleep(1000);
    await victim.kill();
    await sleep(1000);
    const restarted = await start('deadline');
    const relaunchedAt = launchedAt('deadline');
    const { outcome } = await restarted.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'deadlined',
      runId: 'deadline-1',
    });
    const endedAt = Date.now();
    const endedAfter = endedAt - startedAt;
    expect(outcome).toMatchObject({ status: 'ceiling_stop', error: { cap: 'deadlineMs' } });
    // the idempotent attempt ran again after the recovery, and the run still ended at DEADLINE_MS
    const everyone = [...new Set(bed.processes.map((p) => p.executor))];
    const attempts = readJournals(bed.base, everyone).filter((e) => e.runId === 'deadline-1');
    expect(attempts).toHaveLength(2);
    expect(endedAfter).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    // a deadline counted from the recovery would end no sooner than DEADLINE_MS after the relaunch
    expect(endedAt).toBeLessThan(relaunchedAt + DEADLINE_MS);
  }, 120_000);

  it('replays a finished retry wait as it went, even when the recovery comes after the deadline', async () => {
    const victim = await start('rh');
    await victim.command('start', {
      loop: 'retryThenHang',
      runId: 'retry-hang',
      input: { name: 'h', refines: 0 },
    });
    // the retry wait (1 s) ended before the 3 s deadline and attempt 2 began: kill it there
    await until(
      () => readJournals(bed.base, ['rh']).find((e) => e.runId === 'retry-hang' && e.attempt === 2),
      10_000,
    );
    await victim.kill();
    await sleep(2500);
    const restarted = await start('rh');
    const { outcome } = await restarted.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'retryThenHang',
      runId: 'retry-hang',
    });
    // attempt 2 was in flight at the kill and is not idempotent; the wait is not re-decided
    expect(outcome).toMatchObject({
      status: 'unknown_outcome',
      attempts: 2,
      error: { cause: { step: 'attempt' } },
    });
  }, 120_000);

  it("keeps crediting a review's time to the deadline after a recovery", async () => {
    const victim = await start('rd');
    const startedAt = Date.now();
    await victim.command('start', {
      loop: 'reviewedDeadline',
      runId: 'review-deadline',
      input: { name: 'r', refines: 0 },
    });
    await until(async () => {
      const read = await victim.command<{ pending: unknown }>('pending', {
        loop: 'reviewedDeadline',
        runId: 'review-deadline',
      });
      return read.pending ?? undefined;
    });
    const liveBeforeReview = Date.now() - startedAt; // at most this much of the deadline was spent
    await sleep(DEADLINE_MS + 500); // the review outlasts the whole deadline: it does not count
    const answeredAt = Date.now();
    await victim.command('answer', {
      loop: 'reviewedDeadline',
      runId: 'review-deadline',
      event: { type: 'review.retry' },
    });
    await until(() =>
      readJournals(bed.base, ['rd']).find((e) => e.runId === 'review-deadline' && e.attempt === 2),
    );
    await sleep(1000);
    await victim.kill();
    const restarted = await start('rd');
    const relaunchedAt = launchedAt('rd');
    const { outcome } = await restarted.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'reviewedDeadline',
      runId: 'review-deadline',
    });
    const endedAt = Date.now();
    // attempt 2 ran again after the recovery and had the deadline's rest: what was left of DEADLINE_MS
    // after the time spent before the review, counted from the answer
    expect(outcome).toMatchObject({ status: 'ceiling_stop', error: { cap: 'deadlineMs' } });
    expect(endedAt - answeredAt).toBeGreaterThanOrEqual(DEADLINE_MS - liveBeforeReview - 100);
    // a deadline started afresh at the recovery would end no sooner than DEADLINE_MS after the relaunch
    expect(endedAt).toBeLessThan(relaunchedAt + DEADLINE_MS);
  }, 120_000);

  it('ends a run cancelled through DBOS as aborted, with the attempt it was in', async () => {
    const [a, b] = [await start('ca'), await start('cb')];
    await a.command('start', { loop: 'slow', runId: 'cancel-1', input: { name: 'c', refines: 0 } });
    await until(() => readJournals(bed.base, ['ca']).find((e) => e.runId === 'cancel-1'));
    await b.command('cancel', { loop: 'slow', runId: 'cancel-1' });
    const { outcome } = await b.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'slow',
      runId: 'cancel-1',
    });
    expect(outcome).toMatchObject({
      status: 'aborted',
      ok: false,
      attempts: 1,
      error: { kind: 'aborted', state: 'attempting' },
    });
    expect(outcome.rationale).toMatch(/cancelled through DBOS while attempt was in flight/);
    expect(outcome.trace.at(-1)).toMatchObject({ decision: 'aborted' });
  }, 120_000);

  it('reads a run cancelled while it waits for review as aborted there, its candidate kept', async () => {
    const a = await start('cr');
    await a.command('start', {
      loop: 'reviewed',
      runId: 'cancel-review',
      input: { name: 'm', refines: 1 },
    });
    await until(async () => {
      const read = await a.command<{ pending: unknown }>('pending', {
        loop: 'reviewed',
        runId: 'cancel-review',
      });
      return read.pending ?? undefined;
    });
    await a.command('cancel', { loop: 'reviewed', runId: 'cancel-review' });
    const { outcome } = await a.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'reviewed',
      runId: 'cancel-review',
    });
    expect(outcome).toMatchObject({
      status: 'aborted',
      attempts: 2,
      iterations: 1,
      partial: 'draft 2 of m',
      error: { kind: 'aborted', state: 'awaitingReview' },
    });
    expect(outcome.rationale).toMatch(/cancelled through DBOS while it waited for an answer/);
    // the replay rebuilt the loop's own trace: both attempts, their verdicts, the refine between
    const states = outcome.trace.map((entry) => entry.state);
    expect(states.filter((state) => state === 'attempting')).toHaveLength(2);
    expect(states).toContain('refining');
  }, 120_000);

  it('reads a run cancelled while it waited on its queue as aborted before it started', async () => {
    const a = await start('cq');
    // no process serves this queue, so the run stays enqueued until it is cancelled
    await a.command('start', {
      loop: 'side',
      runId: 'cancel-queued',
      input: { name: 'q', refines: 0 },
      queue: 'nobody',
    });
    await a.command('cancel', { loop: 'side', runId: 'cancel-queued' });
    const { outcome } = await a.command<{ outcome: LoopOutcome }>('outcome', {
      loop: 'side',
      runId: 'cancel-queued',
    });
    expect(outcome).toMatchObject({ status: 'aborted', attempts: 0, iterations: 0 });
    expect(outcome.rationale).toMatch(/cancelled through DBOS before it started/);
    expect(readJournals(bed.base, ['cq']).some((e) => e.runId === 'cancel-queued')).toBe(false);
  }, 120_000);
});
