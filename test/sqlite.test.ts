import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCheckpointError, type LoopConfig, runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { correctable, counted, valid } from './support/scriptedSteps.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `runs-${++files}.db`);

describe('SqliteCheckpointStore', () => {
  it('opens the file in WAL mode with synchronous=NORMAL, creating its folder', () => {
    const file = join(dir, 'nested', 'deeper', 'runs.db');
    const store = new SqliteCheckpointStore(file);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    store.close();
    const full = new SqliteCheckpointStore(file, { synchronous: 'FULL' });
    expect(full.db.pragma('synchronous', { simple: true })).toBe(2);
    full.close();
    expect(existsSync(file)).toBe(true);
  });

  it('shares runs between connections to one file', async () => {
    const file = newFile();
    const writer = new SqliteCheckpointStore(file);
    const reader = new SqliteCheckpointStore(file, { readonly: true });
    await runLoop({ attempt: () => 'x', validate: () => valid }, 'q', {
      store: writer,
      runId: 'shared',
    });
    expect(await reader.load('shared')).toMatchObject({ status: 'done', state: 'proceed' });
    expect((await reader.list()).map((r) => r.runId)).toEqual(['shared']);
    writer.close();
    reader.close();
  });

  it('reads a database without the table as empty', async () => {
    const file = newFile();
    new SqliteCheckpointStore(file).db.exec('DROP TABLE loopchart_checkpoints');
    const reader = new SqliteCheckpointStore(file, { readonly: true });
    expect(await reader.list()).toEqual([]);
    expect(await reader.load('x')).toBeUndefined();
    reader.close();
  });
});

describe('a failing SQLite save stops the run', () => {
  const steps = () => ({
    attempt: counted((n: number) => `draft ${n}`),
    validate: counted(() => correctable('too long')),
    refine: counted((_: number, ctx: { input: string }) => ctx.input),
  });
  const configOf = (s: ReturnType<typeof steps>): LoopConfig<string, string> => ({
    ...s,
    maxRetries: 3,
  });

  it('on a read-only database: no step runs and the error says why', async () => {
    const file = newFile();
    new SqliteCheckpointStore(file).close();
    const store = new SqliteCheckpointStore(file, { readonly: true });
    const counts = steps();
    const error = await runLoop(configOf(counts), 'task', { store, runId: 'ro' }).catch(
      (e: unknown) => e,
    );
    expect(isCheckpointError(error) && error.code).toBe('save_failed');
    expect((error as Error).message).toMatch(/readonly database/);
    expect(counts.attempt.calls).toBe(0);
    expect(await store.load('ro')).toBeUndefined();
    store.close();
  });

  it('when the database turns read-only mid-run: the next step never runs', async () => {
    const store = new SqliteCheckpointStore(newFile());
    const counts = steps();
    const validate = counts.validate;
    counts.validate = counted(() => {
      store.db.pragma('query_only = ON'); // every write from now on fails, as on a read-only mount
      return validate();
    });
    const error = await runLoop(configOf(counts), 'task', { store, runId: 'mid' }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(isCheckpointError(error) && error.code).toBe('save_failed');
    if (!isCheckpointError(error)) return;
    expect(error.message).toMatch(/checkpoint #3 of run 'mid'.*readonly database/);
    expect(error.trace.map((e) => e.decision ?? e.state)).toEqual([
      'attempting',
      'validating',
      'refine',
    ]);
    expect([counts.attempt.calls, counts.validate.calls, counts.refine.calls]).toEqual([1, 1, 0]);
    store.db.pragma('query_only = OFF');
    expect(await store.load('mid')).toMatchObject({ seq: 2, state: 'validating' });
    store.close();
  });
});

describe('the core entry', () => {
  it('never imports better-sqlite3 (it must run in browsers)', () => {
    const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (!spec) continue;
        if (!spec.startsWith('.')) bare.add(spec);
        else visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      }
    };
    visit(join(src, 'entries/index.ts'));
    expect(seen.size).toBeGreaterThan(20);
    expect([...bare]).toContain('xstate');
    expect([...bare].filter((spec) => /sqlite|^node:|^pg$/.test(spec))).toEqual([]);
    expect([...seen].filter((file) => file.includes(join(src, 'stores', 'sqlite')))).toEqual([]);
  });
});
