import {
  type CheckpointStore,
  fingerprint,
  isPausedRun,
  type LoopConfig,
  MemoryCheckpointStore,
  reproducibilityKey,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { decodeCheckpoint } from 'loopchart/persistence';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { connectToViewer, startViewer } from 'loopchart/viewer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { protoKeyed } from './support/hostileValues.js';
import { HOSTILE_FRAMES } from './support/inspectionReplay.js';
import { expectPrototypesClean, snapshotPrototypes } from './support/prototypeGuard.js';

// Untrusted JSON (an LLM's answer, a validator's output, a stored checkpoint) may carry own
// `__proto__`, `constructor` and `prototype` keys. JSON.parse makes them real own keys.

let before: ReturnType<typeof snapshotPrototypes>;
beforeEach(() => {
  before = snapshotPrototypes();
});
afterEach(() => expectPrototypesClean(before));

/** A validator output whose own `__proto__` claims validity and whose error's claims fundamental. */
const spoofingVerdict = () =>
  JSON.parse(
    '{"__proto__":{"valid":true},"valid":false,"constructor":{"prototype":{"polluted":"yes"}},' +
      '"error":{"__proto__":{"severity":"fundamental"},"severity":"correctable","message":"fix",' +
      '"details":{"__proto__":{"polluted":"yes"},"prototype":{"polluted":"yes"}}}}',
  );
const protoOnlyVerdict = () => JSON.parse('{"__proto__":{"valid":true}}');
const candidate = (attempt: number) => ({ ...protoKeyed(), attempt });
const expectOwnProtoKey = (value: unknown) => {
  expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect((value as Record<string, unknown>).polluted).toBeUndefined();
};

describe('__proto__, constructor and prototype keys stay data', () => {
  it('in fingerprints and reproducibility keys: hashed as plain keys, stable through JSON', () => {
    const value = protoKeyed();
    const { nested: _, ...withoutNested } = value;
    const withoutProto = JSON.parse(JSON.stringify(value).replace('"__proto__":', '"other":'));
    expect(reproducibilityKey(value)).not.toBe(reproducibilityKey(withoutProto));
    expect(reproducibilityKey(value)).not.toBe(reproducibilityKey(withoutNested));
    expect(reproducibilityKey(JSON.parse(JSON.stringify(value)))).toBe(reproducibilityKey(value));
    expect(fingerprint(value)).not.toBe(fingerprint(withoutProto));
    expect(fingerprint(JSON.parse(JSON.stringify(value)))).toBe(fingerprint(value));
  });

  it('in a loop: a spoofed __proto__ cannot make a verdict valid or fundamental; the trace is JSON', async () => {
    const verdicts = [spoofingVerdict(), protoOnlyVerdict()];
    const outcome = await runLoop(
      {
        attempt: (ctx) => candidate(ctx.attempt),
        validate: () => verdicts.shift(),
        refine: (ctx) => ({ ...protoKeyed(), from: ctx.input }),
        retryDelayMs: 0,
      },
      protoKeyed(),
    );
    // The first verdict is correctable (its own fields), the second is malformed (no own `valid`).
    expect(outcome.status).toBe('terminate_with_partial');
    expect(outcome.iterations).toBe(1);
    expect(outcome.rationale).toMatch(/malformed/);
    if (outcome.status !== 'terminate_with_partial') return;
    expectOwnProtoKey(outcome.partial);
    const keys = outcome.trace.map((entry) => entry.key).filter(Boolean);
    expect(new Set(keys).size).toBe(2);
    expect(JSON.parse(JSON.stringify(outcome.trace))).toEqual(outcome.trace);
    expectOwnProtoKey(JSON.parse(JSON.stringify(outcome)).partial);
  });
});

const stores: [string, () => CheckpointStore][] = [
  ['MemoryCheckpointStore', () => new MemoryCheckpointStore()],
  ['SqliteCheckpointStore', () => new SqliteCheckpointStore(':memory:')],
];

describe.each(stores)('a checkpoint round trip through %s', (_, makeStore) => {
  const config: LoopConfig = {
    attempt: (ctx) => candidate(ctx.attempt),
    validate: (value) =>
      (value as { attempt: number }).attempt === 1 ? spoofingVerdict() : { valid: true },
    review: { beforeProceed: true },
    retryDelayMs: 0,
  };

  it('keeps the keys as data in the stored JSON, the paused run and the resumed outcome', async () => {
    const store = makeStore();
    try {
      const paused = await runLoop(config, protoKeyed(), { store, runId: 'proto-1' });
      expect(isPausedRun(paused)).toBe(true);
      if (!isPausedRun(paused) || paused.pending.kind !== 'review') {
        throw new Error(`expected a review pause, got ${JSON.stringify(paused.status)}`);
      }
      expectOwnProtoKey(paused.pending.candidate);
      const record = await store.load('proto-1');
      expect(record?.data).toContain('"__proto__":{"polluted":"yes","valid":true}');

      const modified = await resumeLoop(config, {
        store,
        runId: 'proto-1',
        event: { type: 'review.modify', candidate: { ...protoKeyed(), attempt: 9 } },
      });
      expect(isPausedRun(modified)).toBe(true);
      const outcome = await resumeLoop(config, {
        store,
        runId: 'proto-1',
        event: { type: 'review.continue' },
      });
      expect(outcome.status).toBe('proceed');
      if (outcome.status !== 'proceed') return;
      expectOwnProtoKey(outcome.candidate);
      expect((outcome.candidate as { attempt: number }).attempt).toBe(9);
      expect(Object.getOwnPropertyDescriptor(outcome.candidate, '__proto__')?.value).toEqual(
        Object.getOwnPropertyDescriptor(protoKeyed(), '__proto__')?.value,
      );
    } finally {
      await store.close?.();
    }
  });

  it('decodes and resumes a tampered checkpoint with __proto__ keys at every level', async () => {
    const store = makeStore();
    try {
      await runLoop(config, 'draft', { store, runId: 'proto-2' });
      const record = await store.load('proto-2');
      if (!record) throw new Error('no checkpoint was saved');
      const evil = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},';
      const data = record.data
        .replace(/^\{/, `{${evil}`)
        .replace('"snapshot":{', `"snapshot":{${evil}`)
        .replace('"context":{', `"context":{${evil}`)
        .replace('"settings":{', `"settings":{${evil}`);
      const count = (text: string) => text.split('"__proto__"').length - 1;
      expect(count(data) - count(record.data)).toBe(4);
      const tampered = { ...record, seq: record.seq + 1, data };
      await store.save(tampered);
      const checkpoint = decodeCheckpoint(tampered);
      expect(Object.getPrototypeOf(checkpoint)).toBe(Object.prototype);
      const outcome = await resumeLoop(config, {
        store,
        runId: 'proto-2',
        event: { type: 'review.continue' },
      });
      expect(outcome.status).toBe('proceed');
    } finally {
      await store.close?.();
    }
  });
});

describe('the run viewer', () => {
  it('takes __proto__, constructor and prototype keys (events, snapshots, definitions, a real loop) without polluting its process', async () => {
    const viewer = await startViewer({ port: 0 });
    const reporter = new WebSocket(viewer.inspectUrl);
    const watcher = new WebSocket(`ws://127.0.0.1:${viewer.port}/watch`, {
      origin: `http://127.0.0.1:${viewer.port}`,
    });
    const watched: unknown[] = [];
    watcher.on('message', (data) => watched.push(JSON.parse(String(data))));
    try {
      await Promise.all([reporter, watcher].map((s) => new Promise((ok) => s.once('open', ok))));
      for (const frame of HOSTILE_FRAMES) reporter.send(frame);
      const connection = connectToViewer(viewer.inspectUrl, { onError: () => {} });
      await runLoop(
        { attempt: (ctx) => candidate(ctx.attempt), validate: spoofingVerdict, maxRetries: 1 },
        protoKeyed(),
        { inspect: connection.inspect },
      );
      await connection.close();
      await vi.waitFor(
        () => {
          const runs = viewer.runs();
          expect(runs.map((run) => run.id.split('/')[1])).toEqual(
            expect.arrayContaining(['p:1', 'p:2', 'p:3']),
          );
          const evil = runs.find((run) => run.id.endsWith('/p:2'));
          expect(evil?.chartId ?? evil?.chartError).toBeDefined();
          expect(runs.find((run) => run.machineId === 'loop')?.status).toBe('done');
        },
        { timeout: 20_000, interval: 50 },
      );
      const api = await (await fetch(`${viewer.url}api/runs`)).text();
      expect(JSON.parse(api)).toHaveLength(viewer.runs().length);
      expect(watched.length).toBeGreaterThan(0);
    } finally {
      reporter.close();
      watcher.close();
      await viewer.close();
    }
  }, 30_000);
});
