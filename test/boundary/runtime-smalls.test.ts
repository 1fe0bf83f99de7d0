/**
 * Issue 29's smaller runtime findings, one test each: a failed save releases its writer's claim;
 * a typed failure with `retryAfterMs: NaN` says so (no `classifyFailure` was involved); a circular
 * candidate names itself as the cause; a run id with NUL is refused before any store sees it;
 * SQLite read-only works once its `-shm` file is gone; a save waiting for SQLite's write lock
 * leaves the event loop running.
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckpointRecord,
  isCheckpointError,
  isLoopConfigError,
  type LoopConfig,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
  transientFailure,
} from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { asNobody } from '../support/asNobody.js';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-smalls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const valid = () => ({ valid: true as const });

describe('a failed save', () => {
  it("releases its writer's claim: resuming at once is not refused as another writer", async () => {
    class FailsOnce extends MemoryCheckpointStore {
      failAt = 2;
      override async save(record: CheckpointRecord) {
        if (record.seq === this.failAt) {
          this.failAt = 0;
          throw new Error('disk full');
        }
        return super.save(record);
      }
    }
    const store = new FailsOnce();
    const config: LoopConfig<string, string> = {
      idempotent: { attempt: true },
      attempt: ({ input }) => `draft of ${input}`,
      validate: valid,
    };
    const failed = await runLoop(config, 'memo', { store, runId: 'r' }).catch((e: unknown) => e);
    expect(isCheckpointError(failed) && failed.code).toBe('save_failed');
    const resumed = await resumeLoop(config, { store, runId: 'r' });
    expect(resumed).toMatchObject({ status: 'proceed', candidate: 'draft of memo' });
  });
});

describe('a typed failure that asks for retryAfterMs: NaN', () => {
  it('says what is wrong with it, and blames no classifyFailure the user never passed', async () => {
    const outcome = await runLoop(
      {
        attempt: () => {
          throw transientFailure('rate limited', { effect: 'none', retryAfterMs: Number.NaN });
        },
        validate: valid,
      },
      'memo',
    );
    expect(outcome.status).toBe('permanent_failure');
    const message = outcome.status === 'permanent_failure' ? outcome.error.message : '';
    expect(message).toMatch(/retryAfterMs must be a finite number ≥ 0/);
    expect(message).not.toMatch(/classifyFailure/);
  });
});

describe('a circular candidate in a checkpointed run', () => {
  it('fails the save naming the field that is not JSON, not "Maximum call stack size exceeded"', async () => {
    const cyclic: Record<string, unknown> = { total: 12 };
    cyclic.self = cyclic;
    const error = await runLoop({ attempt: () => cyclic, validate: valid }, 'memo', {
      store: new MemoryCheckpointStore(),
    }).catch((e: unknown) => e);
    expect(isCheckpointError(error) && error.code).toBe('save_failed');
    expect(String(error)).toMatch(/candidate is not JSON \(.*circular/);
    expect(String(error)).not.toMatch(/Maximum call stack/);
  });
});

describe('a run id with NUL', () => {
  it('is refused by the run options, the same for every store, before a store sees it', async () => {
    const stores = [
      new MemoryCheckpointStore(),
      new SqliteCheckpointStore(join(dir, 'nul.db')),
    ] as const;
    for (const store of stores) {
      const saves = vi.spyOn(store, 'save');
      const error = await runLoop({ attempt: () => 'x', validate: valid }, 'memo', {
        store,
        runId: 'run\u0000one',
      }).catch((e: unknown) => e);
      expect(isLoopConfigError(error) && error.message).toMatch(/runId: .*NUL/);
      expect(saves).not.toHaveBeenCalled();
    }
    stores[1].close();
  });
});

describe('SQLite', () => {
  it('reads a WAL file read-only once its -shm file is gone, where the reader may not create it', async () => {
    chmodSync(dir, 0o755); // mkdtemp's folders are the owner's alone
    const folder = mkdtempSync(join(dir, 'ro-'));
    const file = join(folder, 'runs.db');
    const writer = new SqliteCheckpointStore(file);
    await runLoop({ attempt: () => 'x', validate: valid }, 'memo', { store: writer, runId: 'r' });
    writer.close(); // a clean close folds the -wal into the file and removes -wal and -shm
    expect(readdirSync(folder)).toEqual(['runs.db']);
    chmodSync(folder, 0o555);
    const build = compileLibrary('readonly', ['entries/index.ts', 'entries/sqlite.ts']);
    try {
      spawnSync('chmod', ['-R', 'a+rX', build.base]);
      const script = join(build.base, 'read.mjs');
      writeFileSync(
        script,
        `import { SqliteCheckpointStore } from ${JSON.stringify(join(build.lib, 'entries/sqlite.js'))};
         const store = new SqliteCheckpointStore(process.argv[2], { readonly: true });
         const row = await store.load('r');
         console.log(JSON.stringify({ seq: row?.seq, status: row?.status, listed: (await store.list()).length }));`,
      );
      chmodSync(script, 0o644);
      // as root the folder's mode would not stop SQLite: read as nobody then
      const read = spawnSync(process.execPath, [script, file], {
        encoding: 'utf8',
        ...asNobody([script, file]),
      });
      expect(read.stderr).toBe('');
      expect(JSON.parse(read.stdout)).toEqual({ seq: 3, status: 'done', listed: 1 });
    } finally {
      chmodSync(folder, 0o755);
      removeLibrary(build.base);
    }
  }, 120_000); // it compiles src (unless this run already did) and starts a process: slow when loaded

  it('lets the event loop run while a save waits for another connection’s write lock', async () => {
    const file = join(dir, 'busy.db');
    const store = new SqliteCheckpointStore(file, { busyTimeoutMs: 10_000 });
    const holder = new SqliteCheckpointStore(file);
    holder.db.exec('BEGIN IMMEDIATE'); // holds the write lock, as another process would
    const record: CheckpointRecord = {
      runId: 'busy',
      seq: 1,
      status: 'running',
      state: 'attempting',
      machineId: 'loop',
      updatedAt: Date.now(),
      data: '{}',
    };
    const started = performance.now();
    const saving = store.save(record);
    const blockedMs = performance.now() - started;
    // was the whole busy timeout (10 s), the event loop frozen; 2 s is room for a loaded machine
    expect(blockedMs).toBeLessThan(2000);
    holder.db.exec('COMMIT');
    await saving;
    expect((await store.load('busy'))?.seq).toBe(1);
    holder.close();
    store.close();
  });

  it('gives up with the busy error once busyTimeoutMs has passed with the lock still held', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const file = join(dir, 'busier.db');
    const store = new SqliteCheckpointStore(file, { busyTimeoutMs: 1000 });
    const holder = new SqliteCheckpointStore(file);
    holder.db.exec('BEGIN IMMEDIATE');
    try {
      const record = {
        runId: 'b',
        seq: 1,
        status: 'running' as const,
        state: 's',
        machineId: 'loop',
        updatedAt: 0,
        data: '{}',
      };
      const saving = store.save(record).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(1100);
      expect(String(((await saving) as { code?: string }).code)).toMatch(/^SQLITE_BUSY/);
    } finally {
      vi.useRealTimers();
      holder.db.exec('ROLLBACK');
      holder.close();
      store.close();
    }
  });
});
