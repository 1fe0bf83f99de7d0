/**
 * One writer per run while a step outlives its claim (SPEC §6). A writer renews its claim every
 * third of `claimTtlMs` while a long step runs, so resumers that arrive after the first claim
 * would have lapsed are still refused with `conflict` and run nothing; the stored claim keeps its
 * owner and moves forward. A writer that stalls past its claim loses it instead: the resumer that
 * took over runs the step, and the stalled writer's next renewal stops it with `conflict`, its
 * step's signal aborted, before its next step. Loops and pipelines, on the memory, SQLite and
 * Postgres stores, each side with its own connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  type CheckpointStore,
  isCheckpointError,
  type LoopConfig,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { type PipelinePlan, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';

type Kind = 'memory' | 'sqlite' | 'postgres';
const reachable = await postgresReachable();
const schema = schemaName('renewal');
const folder = mkdtempSync(join(tmpdir(), 'loopchart-renewal-'));
const opened: { close?: () => unknown }[] = [];
const memory = new MemoryCheckpointStore();

beforeAll(async () => {
  if (!reachable) return;
  const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
  await store.setup();
  await store.close();
});
afterAll(async () => {
  for (const store of opened) await store.close?.();
  rmSync(folder, { recursive: true, force: true });
  if (reachable) await dropSchema(schema);
});

/** A connection of its own to the run's store, as another process would have. */
function connect(kind: Kind, db: string): CheckpointStore {
  if (kind === 'memory') return memory; // one process's memory: both sides share it
  const store =
    kind === 'sqlite'
      ? new SqliteCheckpointStore(join(folder, `${db}.db`))
      : new PostgresCheckpointStore({ connectionString: PG_URL, schema });
  opened.push(store);
  return store;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A step that takes `ms` unless its signal aborts first, and, given `held`, does not end before
 * that settles either (so a competitor the loaded machine woke late still finds it in flight).
 */
function slowStep(
  ms: number,
  calls: { count: number; aborted: number },
  held: Promise<void> = Promise.resolve(),
) {
  return ({ signal }: { signal: AbortSignal }) => {
    calls.count += 1;
    return new Promise<string>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const elapsed = new Promise<void>((done) => (timer = setTimeout(done, ms)));
      void Promise.all([elapsed, held]).then(() => resolve('draft'));
      signal.addEventListener('abort', () => {
        calls.aborted += 1;
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  };
}

/**
 * Waits until the writer's step has been called; fails at once, with what the writer ended in,
 * if the writer settles first (it would never call it), or after a generous guard.
 */
async function stepStarted(calls: { count: number }, writer: Promise<unknown>, what: string) {
  let settled: string | undefined;
  writer.then(
    (result) => (settled = `it ended ${JSON.stringify(result)}`),
    (error: unknown) => (settled = `it failed: ${String(error)}`),
  );
  const guard = Date.now() + 60_000;
  while (calls.count === 0) {
    if (settled) throw new Error(`${what}: the writer never called its step, ${settled}`);
    if (Date.now() > guard) throw new Error(`${what}: the writer's step not called within 60 s`);
    await sleep(5);
  }
}

interface Claim {
  owner: string;
  expiresAt: number;
}

/** The claim stored with the run right now. */
async function storedClaim(store: CheckpointStore, runId: string) {
  const row = await store.load(runId);
  return row ? (JSON.parse(row.data).claim as Claim | undefined) : undefined;
}

/** `store` as the writer uses it, keeping the first claim it saved (the one taken at the start). */
function recordingFirstClaim(store: CheckpointStore) {
  const first: { claim?: Claim } = {};
  const recording: CheckpointStore = {
    save: (record) => {
      first.claim ??= JSON.parse(record.data).claim as Claim | undefined;
      return store.save(record);
    },
    load: (id) => store.load(id),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
  return { recording, first };
}

interface Race {
  kind: Kind;
  shape: 'loop' | 'pipeline';
  ttlMs: number;
  /** The step's length in claim lifetimes. */
  stepTtls: number;
  /** When each competitor arrives, as a fraction of the time between the first expiry and the step's end. */
  arrivals: number[];
}

const kinds: Kind[] = reachable ? ['memory', 'sqlite', 'postgres'] : ['memory', 'sqlite'];
const shapes = ['loop', 'pipeline'] as const;
const timing = {
  // claims long enough that a loaded machine's timer lag (hundreds of ms) cannot lapse one
  ttlMs: fc.integer({ min: 600, max: 1000 }),
  stepTtls: fc.double({ min: 2.5, max: 4, noNaN: true }),
  arrivals: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
};
/** One race on every store and shape, with generated timings. */
const racesArbitrary: fc.Arbitrary<Race[]> = fc.tuple(
  ...kinds.flatMap((kind) =>
    shapes.map((shape) =>
      fc.record({ kind: fc.constant(kind), shape: fc.constant(shape), ...timing }),
    ),
  ),
);

/** Runs one race; returns what broke, one line each. */
async function race(r: Race, n: number): Promise<string[]> {
  const runId = `race-${n}-${globalThis.crypto.randomUUID()}`;
  const calls = { count: 0, aborted: 0 };
  const stepMs = Math.round(r.ttlMs * r.stepTtls);
  // the writer's step lasts stepMs, and past it until every competitor has had its try (a
  // competitor's own step, which it must never get to run, does not wait)
  let competed = () => {};
  const held = new Promise<void>((resolve) => (competed = resolve));
  const sideOf = (attempt: ReturnType<typeof slowStep>) => {
    const config: LoopConfig<string, string> = {
      idempotent: { attempt: true },
      attempt,
      validate: () => ({ valid: true }),
    };
    const plan: PipelinePlan = { stages: [{ id: 'only', loop: config }] };
    return { config, plan };
  };
  const step = slowStep(stepMs, calls, held);
  let stepAt: number | undefined;
  const writerSide = sideOf((args) => {
    stepAt ??= Date.now();
    return step(args);
  });
  const { config, plan } = sideOf(slowStep(stepMs, calls));
  const writerStore = recordingFirstClaim(connect(r.kind, runId));
  const options = { runId, claimTtlMs: r.ttlMs };
  const started = Date.now();
  const writer =
    r.shape === 'loop'
      ? runLoop(writerSide.config, 'task', { ...options, store: writerStore.recording })
      : runPipeline(writerSide.plan, 'task', { ...options, store: writerStore.recording });
  const problems: string[] = [];
  const competitor = connect(r.kind, runId);
  try {
    await stepStarted(calls, writer, `${r.kind} ${r.shape}`);
    // the claim the writer took with its first save, whenever a loaded machine let that happen
    const first = writerStore.first.claim;
    if (!first) throw new Error(`${r.kind} ${r.shape}: the writer saved no claim before its step`);
    // arrive after the first claim would have lapsed unrenewed, and before the step's stepMs end
    // (the step outlasts both, so a competitor woken late still finds it in flight)
    const from = first.expiresAt + 150;
    const until = Math.max(from, (stepAt ?? started) + stepMs - 300);
    for (const arrival of [...r.arrivals].sort()) {
      await sleep(Math.max(0, from + arrival * (until - from) - Date.now()));
      const claim = await storedClaim(competitor, runId);
      const refused = await (r.shape === 'loop'
        ? resumeLoop(config, { ...options, store: competitor })
        : resumePipeline(plan, { ...options, store: competitor })
      ).catch((e: unknown) => e);
      const at = Date.now() - started;
      if (!isCheckpointError(refused) || refused.code !== 'conflict')
        problems.push(`a resumer at ${at} ms was not refused: ${String(refused)}`);
      if (claim?.owner !== first.owner) problems.push(`the claim changed hands by ${at} ms`);
      if (!claim || claim.expiresAt <= first.expiresAt)
        problems.push(`the claim was not renewed by ${at} ms`);
    }
  } finally {
    competed();
  }
  const done = await writer.then(
    (result) => result.status,
    (error: unknown) => (isCheckpointError(error) ? error.code : String(error)),
  );
  if (done !== (r.shape === 'loop' ? 'proceed' : 'completed'))
    problems.push(`the writer ended ${done}`);
  if (calls.count !== 1 || calls.aborted !== 0)
    problems.push(`${calls.count} step calls, ${calls.aborted} aborted`);
  return problems;
}

describe('a claim renewed during a long step', () => {
  it('holds off every resumer that arrives after the first claim would have lapsed', async () => {
    // the races of one run go at once (each its own run id), so their steps overlap in time
    await fc.assert(
      fc.asyncProperty(racesArbitrary, async (races) => {
        const problems = await Promise.all(races.map((r, n) => race(r, n)));
        const broken = problems.flatMap((lines, n) =>
          lines.map((l) => `${JSON.stringify(races[n])}: ${l}`),
        );
        if (broken.length) throw new Error(broken.join('\n'));
      }),
      // a failure ends the property at once: shrinking reruns races of seconds each, past the timeout
      { numRuns: 2, endOnFailure: true },
    );
  }, 180_000);

  it('is lost by a writer that stalls past it: the resumer runs the step, the writer stops with conflict', async () => {
    const outcomes = await Promise.all(
      kinds.flatMap((kind) => shapes.map((shape) => stalledWriter(kind, shape))),
    );
    expect(outcomes).toEqual(
      kinds.flatMap((kind) =>
        shapes.map((shape) => ({
          kind,
          shape,
          writer: 'conflict',
          writerSteps: { count: 1, aborted: 1 },
          writerValidations: 0,
          resumer: shape === 'loop' ? 'proceed' : 'completed',
          resumerSteps: { count: 1, aborted: 0 },
        })),
      ),
    );
  }, 30_000);
});

/**
 * The writer's saves hang from its first on (a stalled process or network), so its claim lapses
 * while its step runs; a resumer takes the run over, then the writer's held renewal goes through.
 */
async function stalledWriter(kind: Kind, shape: 'loop' | 'pipeline') {
  const runId = `stalled-${shape}-${globalThis.crypto.randomUUID()}`;
  const ttlMs = 200;
  const writerSteps = { count: 0, aborted: 0 };
  const resumerSteps = { count: 0, aborted: 0 };
  let writerValidations = 0;
  const sideOf = (steps: typeof writerSteps, ms: number, validated: () => void) => {
    const config: LoopConfig<string, string> = {
      idempotent: true,
      attempt: slowStep(ms, steps),
      validate: () => {
        validated();
        return { valid: true };
      },
    };
    const plan: PipelinePlan = { stages: [{ id: 'only', loop: config }] };
    return { config, plan };
  };
  // long enough to outlast a resumer on a loaded machine; the conflict aborts it early
  const writer = sideOf(writerSteps, 25 * ttlMs, () => (writerValidations += 1));
  const resumer = sideOf(resumerSteps, 20, () => {});
  const store = connect(kind, runId);
  let release = () => {};
  const stall = new Promise<void>((r) => (release = r));
  let saved = 0;
  const stalling: CheckpointStore = {
    save: async (record) => {
      if (saved++ > 0) await stall;
      return store.save(record);
    },
    load: (id) => store.load(id),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
  const options = { runId, claimTtlMs: ttlMs };
  const written = (
    shape === 'loop'
      ? runLoop(writer.config, 'task', { ...options, store: stalling })
      : runPipeline(writer.plan, 'task', { ...options, store: stalling })
  ).then(
    (result) => result.status,
    (error: unknown) => (isCheckpointError(error) ? error.code : String(error)),
  );
  await stepStarted(writerSteps, written, `stalled ${kind} ${shape}`);
  const lapses = (await storedClaim(store, runId))?.expiresAt ?? Date.now() + ttlMs;
  await sleep(Math.max(0, lapses + 60 - Date.now()));
  const other = connect(kind, runId);
  const resumed = await (shape === 'loop'
    ? resumeLoop(resumer.config, { ...options, store: other })
    : resumePipeline(resumer.plan, { ...options, store: other })
  ).then(
    (result) => result.status,
    (error: unknown) => (isCheckpointError(error) ? error.code : String(error)),
  );
  release();
  return {
    kind,
    shape,
    writer: await written,
    writerSteps,
    writerValidations,
    resumer: resumed,
    resumerSteps,
  };
}
