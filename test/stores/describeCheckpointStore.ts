/**
 * The behaviour every `CheckpointStore` must have, as one suite: the memory, SQLite and Postgres
 * stores all run it. `makeStore` is called at least once per test, and every store it returns must
 * reach the same data (a reopened connection, as a restarted process would open). The suite uses
 * fresh run ids, so a shared database is fine, and it closes each store it made.
 */
import { randomUUID } from 'node:crypto';
import {
  type CheckpointRecord,
  type CheckpointStore,
  clarificationRequest,
  isCheckpointError,
  isPausedRun,
  type LoopConfig,
  type RunResult,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { afterEach, describe, expect, it } from 'vitest';
import { correctable, counted, deferred, valid } from '../support/scriptedSteps.js';

type MakeStore = () => CheckpointStore | Promise<CheckpointStore>;

export function describeCheckpointStore(name: string, makeStore: MakeStore): void {
  describe(`CheckpointStore contract: ${name}`, () => {
    const opened: CheckpointStore[] = [];
    const open = async () => {
      const store = await makeStore();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close?.();
    });

    describe('save, load, list, delete', () => {
      it('loads a record exactly as saved, data byte for byte', async () => {
        const store = await open();
        const record = makeRecord({ data: '{"text":"ünïcødé ✓ \\u0000 \'quotes\'"}' });
        await store.save(record);
        expect(await store.load(record.runId)).toEqual(record);
        expect(await store.load(`${record.runId}-missing`)).toBeUndefined();
      });

      it('accepts only the next seq and leaves the row unchanged on a conflict', async () => {
        const store = await open();
        const first = makeRecord({ seq: 1, data: 'one' });
        await store.save(first);
        const again = await store.save({ ...first, data: 'other' }).catch((e: unknown) => e);
        expect(isCheckpointError(again) && again.code).toBe('conflict');
        const skipped = await store.save({ ...first, seq: 3, data: 'three' }).catch((e) => e);
        expect(isCheckpointError(skipped) && skipped.code).toBe('conflict');
        expect(await store.load(first.runId)).toEqual(first);
        const second = { ...first, seq: 2, status: 'done' as const, state: 'proceed', data: 'two' };
        await store.save(second);
        expect(await store.load(first.runId)).toEqual(second);
      });

      it('refuses a later seq for a run it does not hold', async () => {
        const store = await open();
        const record = makeRecord({ seq: 4 });
        const error = await store.save(record).catch((e: unknown) => e);
        expect(isCheckpointError(error) && error.code).toBe('conflict');
        expect(await store.load(record.runId)).toBeUndefined();
      });

      it('lists summaries newest first, by status and up to a limit', async () => {
        const store = await open();
        const base = Date.now() + 10_000_000;
        const a = makeRecord({ status: 'done', state: 'proceed', updatedAt: base + 1 });
        const b = makeRecord({ status: 'paused', state: 'awaitingReview', updatedAt: base + 3 });
        const c = makeRecord({ status: 'paused', state: 'awaitingReview', updatedAt: base + 2 });
        for (const record of [a, b, c]) await store.save(record);
        const ours = (list: { runId: string }[]) =>
          list.map((r) => r.runId).filter((id) => [a, b, c].some((x) => x.runId === id));
        const all = await store.list();
        expect(ours(all)).toEqual([b.runId, c.runId, a.runId]);
        expect(all.find((r) => r.runId === b.runId)).toEqual(withoutData(b));
        expect(ours(await store.list({ status: 'paused' }))).toEqual([b.runId, c.runId]);
        expect(ours(await store.list({ status: 'done' }))).toEqual([a.runId]);
        const newest = await store.list({ limit: 2 });
        expect(newest).toHaveLength(2); // others may share the database: check only the order
        expect(newest[0]?.updatedAt).toBeGreaterThanOrEqual(newest[1]?.updatedAt ?? Infinity);
        expect(newest[0]?.updatedAt).toBeGreaterThanOrEqual(b.updatedAt);
      });

      it('deletes a run and says whether it was there', async () => {
        const store = await open();
        const record = makeRecord();
        await store.save(record);
        expect(await store.delete(record.runId)).toBe(true);
        expect(await store.load(record.runId)).toBeUndefined();
        expect(await store.delete(record.runId)).toBe(false);
        await store.save(record); // seq 1 again: the run is new
        expect(await store.load(record.runId)).toEqual(record);
      });
    });

    describe('running loops on it', () => {
      it('checkpoints a run after every step and ends with a done row holding the trace', async () => {
        const store = await open();
        const runId = newRunId();
        const validate = counted((n: number) => (n < 3 ? correctable(`issue ${n}`) : valid));
        const outcome = await runLoop(
          { attempt: ({ attempt }) => `draft ${attempt}`, validate, maxRetries: 3 },
          'task',
          { store, runId },
        );
        expect(outcome.status).toBe('proceed');
        const row = await store.load(runId);
        // attempt+validate ×3 and 2 refines: one save per step, plus the initial checkpoint.
        expect(row).toMatchObject({ runId, status: 'done', state: 'proceed', seq: 9 });
        expect(JSON.parse(row?.data ?? '{}').trace).toEqual(outcome.trace);
        expect(await resumeLoop(config(), { store, runId }).catch((e) => e)).toMatchObject({
          code: 'other_machine',
        });
      });

      it('resumes an in-flight attempt: re-runs it only when it is idempotent', async () => {
        const store = await open();
        for (const idempotent of [false, true]) {
          const calls = counted(() => 'draft');
          const inFlight = deferred<void>();
          const hang = new AbortController();
          const stuck: LoopConfig<string, string> = {
            ...config(),
            idempotent: { attempt: idempotent },
            attempt: () => {
              inFlight.resolve();
              return new Promise<string>(() => {});
            },
          };
          const runId = newRunId();
          const abandoned = runLoop(stuck, 'task', { store, runId, signal: hang.signal });
          await inFlight.promise;
          const crashed = await copyRun(store, runId); // what a killed process leaves behind
          hang.abort();
          await abandoned;
          const resumed = await resumeLoop({ ...stuck, attempt: calls }, { store, runId: crashed });
          if (idempotent) {
            expect(resumed).toMatchObject({ status: 'proceed', candidate: 'draft', attempts: 1 });
            expect(calls.calls).toBe(1);
          } else {
            expect(resumed.status).toBe('unknown_outcome');
            expect(calls.calls).toBe(0);
            expect(!resumed.ok && 'error' in resumed && resumed.error.cause?.step).toBe('attempt');
          }
          expect((await store.load(crashed))?.status).toBe('done');
        }
      });

      it('pauses for review, survives a reopened store and continues with review.*', async () => {
        const first = await open();
        const runId = newRunId();
        const attempt = counted((n: number) => `draft ${n}`);
        const reviewed: LoopConfig<string, string> = {
          ...config(),
          attempt,
          review: { beforeProceed: true },
        };
        const paused = await runLoop(reviewed, 'task', { store: first, runId });
        expect(paused).toMatchObject({
          status: 'paused',
          ok: false,
          runId,
          state: 'awaitingReview',
          pending: { kind: 'review', reason: 'beforeProceed', candidate: 'draft 1' },
        });
        expect((await first.list({ status: 'paused' })).map((r) => r.runId)).toContain(runId);

        const store = await open(); // a later request, maybe another process
        const still = await resumeLoop(reviewed, { store, runId });
        expect(still).toEqual(paused);
        const wrong = await resumeLoop(reviewed, {
          store,
          runId,
          event: { type: 'clarification.answer', answer: 'x' },
        }).catch((e: unknown) => e);
        expect(isCheckpointError(wrong) && wrong.code).toBe('not_waiting');

        const retried = await resumeLoop(reviewed, {
          store,
          runId,
          event: { type: 'review.retry', feedback: 'shorter' },
        });
        expect(retried).toMatchObject({ status: 'paused', attempts: 2 });
        expect(attempt.calls).toBe(2);
        const done = await resumeLoop(reviewed, {
          store,
          runId,
          event: { type: 'review.continue' },
        });
        expect(done).toMatchObject({ status: 'proceed', candidate: 'draft 2', attempts: 2 });
        expect(done.trace.slice(0, paused.trace.length)).toEqual(paused.trace);
        expect(await resumeLoop(reviewed, { store, runId })).toEqual(done);
        const late = await resumeLoop(reviewed, {
          store,
          runId,
          event: { type: 'review.continue' },
        }).catch((e: unknown) => e);
        expect(isCheckpointError(late) && late.code).toBe('not_waiting');
      });

      it('lets only one of two concurrent answers to one pause run the next step', async () => {
        const store = await open();
        const runId = newRunId();
        const attempt = counted((n: number) => `draft ${n}`);
        const reviewed = { ...config(), attempt, review: { beforeProceed: true } };
        await runLoop(reviewed, 'task', { store, runId });
        // both answers read the pause before either writes: the race the compare-and-set settles
        const bothRead = loadBarrier(store, 2);
        const retry = { type: 'review.retry' as const };
        const results = await Promise.allSettled([
          resumeLoop(reviewed, { store: bothRead, runId, event: retry }),
          resumeLoop(reviewed, { store: bothRead, runId, event: retry }),
        ]);
        const rejected = results.filter((r) => r.status === 'rejected');
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(((rejected[0] as PromiseRejectedResult).reason as { code?: string }).code).toBe(
          'conflict',
        );
        expect(attempt.calls).toBe(2);
      });

      it('applies an answer given ifSeq only to that pause, not to a later one', async () => {
        const store = await open();
        const runId = newRunId();
        const attempt = counted((n: number) => `draft ${n}`);
        const reviewed = { ...config(), attempt, review: { beforeProceed: true } };
        const first = await runLoop(reviewed, 'task', { store, runId });
        if (!isPausedRun(first)) throw new Error(`expected a pause, got ${first.status}`);
        const retry = { type: 'review.retry' as const };
        const second = await resumeLoop(reviewed, { store, runId, event: retry, ifSeq: first.seq });
        expect(second).toMatchObject({ status: 'paused', attempts: 2 });
        expect((second as { seq: number }).seq).toBeGreaterThan(first.seq);
        const stale = await resumeLoop(reviewed, { store, runId, event: retry, ifSeq: first.seq })
          .then(() => 'applied')
          .catch((e: unknown) => (isCheckpointError(e) ? e.code : e));
        expect(stale).toBe('conflict');
        expect(attempt.calls).toBe(2);
        expect((await store.load(runId))?.seq).toBe((second as { seq: number }).seq);
        const bad = await resumeLoop(reviewed, { store, runId, event: retry, ifSeq: 0 }).catch(
          (e: unknown) => (e as Error).message,
        );
        expect(bad).toMatch(/ifSeq/);
      });

      it('waits for a clarification answer and hands it to the next attempt', async () => {
        const store = await open();
        const runId = newRunId();
        const asking: LoopConfig<string, string> = {
          ...config(),
          attempt: ({ answers }) =>
            answers.length === 0
              ? clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] })
              : `report for ${String(answers[0]?.answer)}`,
        };
        const paused = await runLoop(asking, 'task', { store, runId });
        expect(paused).toMatchObject({
          status: 'paused',
          state: 'awaitingClarification',
          pending: { kind: 'clarification', question: 'Which year?', options: ['2025', '2026'] },
        });
        const answered: RunResult<string> = await resumeLoop(asking, {
          store,
          runId,
          event: { type: 'clarification.answer', answer: '2026' },
        });
        expect(isPausedRun(answered)).toBe(false);
        expect(answered).toMatchObject({ status: 'proceed', candidate: 'report for 2026' });
      });
    });

    describe('refusing bad checkpoints', () => {
      it.each([
        ['truncated JSON', 'corrupt', (data: string) => data.slice(0, data.length >> 1)],
        ['an unknown format version', 'unknown_version', (data: string) => reformat(data, 99)],
        ['a checkpoint that is not one', 'corrupt', () => '{"format":1,"runId":"x"}'],
      ])('refuses %s with code %s and leaves the row untouched', async (_, code, spoil) => {
        const store = await open();
        const runId = newRunId();
        const reviewed = { ...config(), review: { beforeProceed: true } };
        await runLoop(reviewed, 'task', { store, runId });
        const good = (await store.load(runId)) as CheckpointRecord;
        const bad = { ...good, seq: good.seq + 1, data: spoil(good.data) };
        await store.save(bad);
        const error = await resumeLoop(reviewed, {
          store,
          runId,
          event: { type: 'review.continue' },
        }).catch((e: unknown) => e);
        expect(isCheckpointError(error) && error.code).toBe(code);
        expect((error as Error).message).toContain(runId);
        expect(await store.load(runId)).toEqual(bad);
      });

      it("refuses another machine's checkpoint and says what differs", async () => {
        const store = await open();
        const runId = newRunId();
        const reviewed = { ...config(), review: { beforeProceed: true } };
        await runLoop(reviewed, 'task', { store, runId });
        const before = await store.load(runId);
        const changed = { ...reviewed, maxRetries: 5 };
        const error = await resumeLoop(changed, { store, runId }).catch((e: unknown) => e);
        expect(isCheckpointError(error) && error.code).toBe('other_machine');
        expect((error as Error).message).toMatch(/maxRetries: 2 → 5/);
        const renamed = await resumeLoop({ ...reviewed, id: 'other' }, { store, runId }).catch(
          (e: unknown) => e,
        );
        expect(isCheckpointError(renamed) && renamed.code).toBe('other_machine');
        expect(await store.load(runId)).toEqual(before);
      });

      it('says not_found for a run it does not hold', async () => {
        const store = await open();
        const error = await resumeLoop(config(), { store, runId: newRunId() }).catch((e) => e);
        expect(isCheckpointError(error) && error.code).toBe('not_found');
      });
    });
  });
}

const config = (): LoopConfig<string, string> => ({
  attempt: () => 'draft',
  validate: () => valid,
  maxRetries: 2,
});

function newRunId(): string {
  return `suite-${randomUUID()}`;
}

function makeRecord(fields: Partial<CheckpointRecord> = {}): CheckpointRecord {
  return {
    runId: newRunId(),
    seq: 1,
    status: 'running',
    state: 'attempting',
    machineId: 'loop',
    updatedAt: Date.now(),
    data: '{}',
    ...fields,
  };
}

function withoutData({ data: _, ...summary }: CheckpointRecord) {
  return summary;
}

function reformat(data: string, format: number): string {
  return JSON.stringify({ ...JSON.parse(data), format });
}

/**
 * Copies a run's current checkpoint to a new run id, as a crashed process would have left it
 * once its claim on the run expired.
 */
async function copyRun(store: CheckpointStore, runId: string): Promise<string> {
  const record = (await store.load(runId)) as CheckpointRecord;
  const copy = newRunId();
  const { claim: _, ...checkpoint } = JSON.parse(record.data);
  const data = JSON.stringify({ ...checkpoint, runId: copy });
  await store.save({ ...record, runId: copy, seq: 1, data });
  return copy;
}

/** A view of `store` whose loads all wait until `count` of them have read the stored row. */
function loadBarrier(store: CheckpointStore, count: number): CheckpointStore {
  let release = () => {};
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reads = 0;
  return {
    save: (record) => store.save(record),
    list: (options) => store.list(options),
    delete: (runId) => store.delete(runId),
    load: async (runId) => {
      const record = await store.load(runId);
      if (++reads >= count) release();
      await allRead;
      return record;
    },
  };
}
