import {
  type CheckpointRecord,
  type CheckpointStore,
  createLoopMachine,
  isCheckpointError,
  isLoopConfigError,
  type LoopConfig,
  type LoopOutcome,
  MemoryCheckpointStore,
  type RunResult,
  resolveConfig,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { decodeCheckpoint, machineFingerprint } from 'loopchart/persistence';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { correctable, counted, valid } from './support/scriptedSteps.js';

/** A memory store that can be slowed down or made to fail from its n-th save on. */
class FlakyStore extends MemoryCheckpointStore {
  saves: CheckpointRecord[] = [];
  constructor(private readonly opts: { delayMs?: number; failFrom?: number } = {}) {
    super();
  }
  override async save(record: CheckpointRecord): Promise<void> {
    if (this.opts.delayMs) await new Promise((r) => setTimeout(r, this.opts.delayMs));
    if (this.saves.length + 1 >= (this.opts.failFrom ?? Number.POSITIVE_INFINITY)) {
      throw new Error('disk I/O error');
    }
    await super.save(record);
    this.saves.push(record);
  }
}

const refining = (): LoopConfig<string, string> => ({
  attempt: ({ attempt }) => `draft ${attempt}`,
  validate: () => correctable('too long'),
  maxRetries: 3,
});

describe('runLoop with a store', () => {
  it('keeps runLoop without a store as it was: a LoopOutcome, nothing saved', async () => {
    const outcome = await runLoop({ attempt: () => 'x', validate: () => valid }, 'q');
    expectTypeOf(outcome).toEqualTypeOf<LoopOutcome<string>>();
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'x' });
    expect(outcome).not.toHaveProperty('runId');
    const store = new MemoryCheckpointStore();
    const stored = await runLoop({ attempt: () => 'x', validate: () => valid }, 'q', { store });
    expectTypeOf(stored).toEqualTypeOf<RunResult<string>>();
    expect(stored).toEqual({ ...outcome, trace: expect.any(Array) });
    expect(await store.list()).toHaveLength(1);
  });

  it('starts each step only once the checkpoint that invoked it is saved', async () => {
    const store = new FlakyStore({ delayMs: 15 });
    const runId = 'gated';
    const seen: string[] = [];
    const look = async (step: string) => {
      const row = await store.load(runId);
      seen.push(`${step}@${row?.state}#${row?.seq}`);
    };
    const outcome = await runLoop(
      {
        attempt: async ({ attempt }) => {
          await look('attempt');
          return `draft ${attempt}`;
        },
        validate: async (candidate) => {
          await look('validate');
          return candidate === 'draft 2' ? valid : correctable('x');
        },
        refine: async ({ input }) => {
          await look('refine');
          return input;
        },
        maxRetries: 2,
      },
      'task',
      { store, runId },
    );
    expect(outcome.status).toBe('proceed');
    expect(seen).toEqual([
      'attempt@attempting#1',
      'validate@validating#2',
      'refine@refining#3',
      'attempt@attempting#4',
      'validate@validating#5',
    ]);
    expect(store.saves.map((r) => `${r.status}:${r.state}`)).toEqual([
      'running:attempting',
      'running:validating',
      'running:refining',
      'running:attempting',
      'running:validating',
      'done:proceed',
    ]);
  });

  it('stops before the next step when a save fails and rejects with the trace so far', async () => {
    const store = new FlakyStore({ failFrom: 4 }); // the save after the first refine
    const attempt = counted((n: number) => `draft ${n}`);
    const refine = counted((_: number, ctx: { input: string }) => ctx.input);
    const validate = counted(() => correctable('too long'));
    const error = await runLoop({ ...refining(), attempt, validate, refine }, 'task', {
      store,
      runId: 'failing',
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30)); // a step that escaped the gate would run now
    expect(isCheckpointError(error)).toBe(true);
    if (!isCheckpointError(error)) return;
    expect(error.code).toBe('save_failed');
    expect(error.runId).toBe('failing');
    expect(error.message).toMatch(
      /saving checkpoint #4 .*disk I\/O error.*stopped before its next step/,
    );
    expect((error.cause as Error).message).toBe('disk I/O error');
    expect([attempt.calls, validate.calls, refine.calls]).toEqual([1, 1, 1]);
    expect(error.trace.map((e) => e.decision ?? e.state)).toEqual([
      'attempting',
      'validating',
      'refine',
      'refining',
    ]);
    expect((await store.load('failing'))?.seq).toBe(3);
  });

  it('fails the same way when the very first save fails: no step runs at all', async () => {
    const attempt = counted(() => 'x');
    const error = await runLoop({ attempt, validate: () => valid }, 'q', {
      store: new FlakyStore({ failFrom: 1 }),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'save_failed', trace: [] });
    expect(attempt.calls).toBe(0);
  });

  it('treats a candidate JSON cannot hold as a failed save, before the next step', async () => {
    const validate = counted(() => valid);
    const error = await runLoop({ attempt: () => ({ n: 1n }), validate }, 'q', {
      store: new MemoryCheckpointStore(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'save_failed', message: expect.stringMatching(/BigInt/) });
    expect(validate.calls).toBe(0);
  });

  it('refuses a run id that is taken before any step runs', async () => {
    const store = new MemoryCheckpointStore();
    await runLoop({ attempt: () => 'x', validate: () => valid }, 'q', { store, runId: 'taken' });
    const attempt = counted(() => 'x');
    const error = await runLoop({ attempt, validate: () => valid }, 'q', {
      store,
      runId: 'taken',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/resumeLoop/) });
    expect(attempt.calls).toBe(0);
  });

  it.each([
    ['runId', { store: new MemoryCheckpointStore(), runId: '' }],
    ['store', { store: { save: 1 } as unknown as CheckpointStore }],
  ])('rejects a bad %s with a LoopConfigError naming it', async (field, options) => {
    const attempt = counted(() => 'x');
    const error = await runLoop({ attempt, validate: () => valid }, 'q', options).catch((e) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toContain(`- ${field}:`);
    expect(attempt.calls).toBe(0);
  });

  it('saves an aborted run as done', async () => {
    const store = new MemoryCheckpointStore();
    const controller = new AbortController();
    const outcome = runLoop(
      {
        attempt: ({ signal }) =>
          new Promise<string>((_, reject) => signal.addEventListener('abort', reject)),
        validate: () => valid,
      },
      'q',
      { store, runId: 'stopped', signal: controller.signal },
    );
    setTimeout(() => controller.abort('user left'), 5);
    expect(await outcome).toMatchObject({ status: 'aborted' });
    expect(await store.load('stopped')).toMatchObject({ status: 'done', state: 'aborted' });
  });

  it('a signal aborted before the run ends it at once: no step, no record, the same outcome as without a store', async () => {
    const store = new MemoryCheckpointStore();
    const saves: number[] = [];
    const counting: CheckpointStore = {
      save: async (record) => {
        saves.push(record.seq);
        await store.save(record);
      },
      load: (id) => store.load(id),
      list: (o) => store.list(o),
      delete: (id) => store.delete(id),
    };
    const attempt = counted(() => 'draft');
    const config = { attempt, validate: () => valid };
    const signal = AbortSignal.abort('closing');
    const stored = await runLoop(config, 'q', { store: counting, runId: 'early', signal });
    expect(attempt.calls).toBe(0);
    expect(saves).toEqual([]);
    expect(await store.load('early')).toBeUndefined();
    const without = await runLoop(config, 'q', { signal });
    const timeless = (outcome: object) =>
      JSON.parse(JSON.stringify(outcome, (k, v) => (k === 'startedAt' ? 0 : v)));
    expect(timeless(stored)).toEqual(timeless(without));
    expect(stored).toMatchObject({ status: 'aborted', attempts: 0, iterations: 0 });
    expect(attempt.calls).toBe(0);
  });
});

describe('resumeLoop', () => {
  it('takes only loop.abort for a run that was working when it stopped', async () => {
    const store = new MemoryCheckpointStore();
    const config = { ...refining(), attempt: () => new Promise<string>(() => {}) };
    const controller = new AbortController();
    const first = runLoop(config, 'q', { store, runId: 'a', signal: controller.signal });
    // the run is in its attempt, and saved so (however long a loaded machine takes)
    await vi.waitFor(async () => expect((await store.load('a'))?.state).toBe('attempting'), {
      timeout: 10_000,
      interval: 1,
    });
    const record = (await store.load('a')) as CheckpointRecord;
    controller.abort();
    await first;
    // a copy of the working run, as a writer that died leaves it once its claim has expired
    const { claim: _, ...checkpoint } = JSON.parse(record.data);
    const data = JSON.stringify({ ...checkpoint, runId: 'b' });
    await store.save({ ...record, runId: 'b', seq: 1, data });
    const error = await resumeLoop(config, {
      store,
      runId: 'b',
      event: { type: 'review.continue' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'not_waiting',
      message: expect.stringMatching(/working \(attempting\).*review\.continue/),
    });
    const aborted = await resumeLoop(config, { store, runId: 'b', event: { type: 'loop.abort' } });
    expect(aborted.status).toBe('aborted');
  });

  it('rejects a bad config before it reads the store', async () => {
    const store = new MemoryCheckpointStore();
    const error = await resumeLoop({ ...refining(), maxRetries: -1 }, { store, runId: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(isLoopConfigError(error)).toBe(true);
  });
});

describe('the checkpoint format', () => {
  it('keeps the trace once, at the top, and restores it into the snapshot on decode', async () => {
    const store = new MemoryCheckpointStore();
    const outcome = await runLoop(refining(), 'q', { store, runId: 'r' });
    const record = (await store.load('r')) as CheckpointRecord;
    const raw = JSON.parse(record.data);
    expect(raw).toMatchObject({ format: 1, runId: 'r', machineId: 'loop', status: 'done' });
    expect(raw.snapshot.context).not.toHaveProperty('trace');
    expect(raw.snapshot.output).not.toHaveProperty('trace');
    const checkpoint = decodeCheckpoint(record);
    expect(checkpoint.trace).toEqual(outcome.trace);
    expect(checkpoint.snapshot.output).toEqual(outcome);
  });

  it('fingerprints structure and settings, not step code', () => {
    const print = (config: LoopConfig<string, string>) =>
      machineFingerprint(createLoopMachine(config), resolveConfig(config));
    const base = refining();
    expect(print(base)).toBe(print({ ...base }));
    expect(print(base)).toBe(print({ ...base, attempt: () => 'other code' }));
    // prepareLoop memoises by id and settings: optional steps that leave them alone leave it too.
    expect(print(base)).toBe(print({ ...base, refine: ({ input }) => input }));
    expect(print(base)).toBe(print({ ...base, classifyFailure: () => 'permanent' }));
    expect(print(base)).not.toBe(print({ ...base, maxRetries: 4 }));
    expect(print(base)).not.toBe(print({ ...base, fallback: () => 'plan b' }));
    expect(print(base)).not.toBe(print({ ...base, review: { afterFailedValidation: true } }));
    expect(print(base)).not.toBe(print({ ...base, idempotent: true }));
  });
});
