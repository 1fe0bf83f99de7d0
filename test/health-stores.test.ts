import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckpointRecord,
  type CheckpointStore,
  isLoopConfigError,
  MemoryCheckpointStore,
} from 'loopchart';
import { type HealthReport, loopHealth, scanRuns } from 'loopchart/health';
import type { ScanOptions } from 'loopchart/persistence';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { HEALTH_FIXTURES, replicateRuns, runScripted } from '../bench/loops/healthRuns.js';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './support/postgresServer.js';

const reachable = await postgresReachable();
const dir = mkdtempSync(join(tmpdir(), 'loopchart-health-'));
const schema = schemaName('health');
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (reachable) await dropSchema(schema);
});

async function seed(store: CheckpointStore) {
  await runScripted(store, 'alpha', HEALTH_FIXTURES.healthy);
  await runScripted(store, 'beta', HEALTH_FIXTURES.stalls);
}

/** The report without what depends on when the runs happened. */
const timeless = (report: HealthReport) =>
  report.loops.map((loop) => ({ ...loop, verdicts: { ...loop.verdicts, series: undefined } }));

const memory = new MemoryCheckpointStore();
await seed(memory);
const expected = timeless(await loopHealth(memory));

const stores: [string, () => Promise<CheckpointStore & { close?(): unknown }>][] = [
  ['memory', async () => memory],
  [
    'SQLite',
    async () => {
      const store = new SqliteCheckpointStore(join(dir, 'runs.db'));
      await seed(store);
      return store;
    },
  ],
];
if (reachable) {
  stores.push([
    'PostgreSQL',
    async () => {
      const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
      await store.setup();
      await seed(store);
      return store;
    },
  ]);
}

describe.each(stores)('scan and loopHealth on the %s store', (_, connect) => {
  let opened: ReturnType<typeof connect> | undefined;
  const open = () => {
    opened ??= connect();
    return opened;
  };
  afterAll(async () => {
    const store = await opened;
    if (store !== memory) await store?.close?.();
  });

  it('scan pages walk every run once, in run-id order, with the filters applied', async () => {
    const store = await open();
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await store.scan?.({ limit: 7, ...(after ? { after } : {}) })) ?? [];
      expect(page.length).toBeLessThanOrEqual(7);
      ids.push(...page.map((r) => r.runId));
      if (page.length < 7) break;
      after = page.at(-1)?.runId;
    }
    expect(ids).toHaveLength(60);
    expect(ids).toEqual([...ids].sort());
    const beta = (await store.scan?.({ machineId: 'beta', limit: 100 })) ?? [];
    expect(beta.map((r) => r.runId)).toEqual(ids.filter((id) => id.startsWith('beta')));
    const loaded = await store.load(beta[0]?.runId ?? '');
    expect(beta[0]).toEqual(loaded);
    const newest = Math.max(...beta.map((r) => r.updatedAt));
    const since = await store.scan?.({ since: newest, limit: 100 });
    expect(since?.every((r) => r.updatedAt >= newest)).toBe(true);
    expect(since?.length).toBeGreaterThan(0);
    const until = await store.scan?.({ until: newest, machineId: 'beta', limit: 100 });
    expect(until?.length).toBe(beta.filter((r) => r.updatedAt < newest).length);
  });

  it('reports the same health as every other store', async () => {
    const store = await open();
    expect(timeless(await loopHealth(store, { pageSize: 9 }))).toEqual(expected);
    const beta = await loopHealth(store, { loop: 'beta' });
    expect(beta.loops.map((l) => l.loop)).toEqual(['beta']);
    expect(beta.scanned).toBe(30);
  });
});

describe('streaming', () => {
  it('reads through scan one page at a time, never list or load', async () => {
    const calls: string[] = [];
    const spy: CheckpointStore = {
      save: (r) => memory.save(r),
      load: (id) => {
        calls.push('load');
        return memory.load(id);
      },
      list: (o) => {
        calls.push('list');
        return memory.list(o);
      },
      delete: (id) => memory.delete(id),
      scan: (o: ScanOptions) => {
        calls.push(`scan ${o.limit}`);
        return memory.scan(o);
      },
    };
    await loopHealth(spy, { pageSize: 25 });
    expect(calls).toEqual(['scan 25', 'scan 25', 'scan 25']);
  });

  it('works on a store without scan, through list and load', async () => {
    const { scan: _, ...plain } = {
      save: (r: CheckpointRecord) => memory.save(r),
      load: (id: string) => memory.load(id),
      list: () => memory.list(),
      delete: (id: string) => memory.delete(id),
      scan: undefined,
    };
    expect(timeless(await loopHealth(plain))).toEqual(expected);
    const seen: string[] = [];
    for await (const record of scanRuns(plain, { machineId: 'alpha' })) seen.push(record.runId);
    expect(seen).toHaveLength(30);
  });
});

describe('the time window', () => {
  it('counts only runs last saved in [since, until)', async () => {
    const templates = (await memory.scan({ machineId: 'alpha', limit: 100 })) ?? [];
    const spread = new MemoryCheckpointStore();
    const end = 1_800_000_000_000;
    await replicateRuns(templates, spread, 100, { end, spanMs: 100_000 });
    const all = await loopHealth(spread);
    expect(all.loops[0]?.runs).toBe(100);
    const half = await loopHealth(spread, { since: new Date(end - 50_000), until: end });
    expect(half.loops[0]?.runs).toBe(50);
    expect(half.window).toEqual({ since: end - 50_000, until: end });
    expect(half.loops[0]?.verdicts.series.buckets.length).toBeGreaterThan(1);
  });
});

describe('records that are not loop runs', () => {
  it('are skipped and counted, never thrown', async () => {
    const store = new MemoryCheckpointStore();
    await runScripted(store, 'alpha', HEALTH_FIXTURES.healthy.slice(0, 3));
    const row = { seq: 1, status: 'done' as const, state: 'x', machineId: 'alpha', updatedAt: 1 };
    await store.save({ ...row, runId: 'torn', data: '{"format":1,"runId":"tor' });
    await store.save({ ...row, runId: 'future', data: '{"format":9,"runId":"future"}' });
    await store.save({
      ...row,
      runId: 'plan',
      data: '{"format":"loopchart.pipeline","version":1}',
    });
    const report = await loopHealth(store);
    expect(report.scanned).toBe(6);
    expect(report.skipped).toEqual({ pipeline: 1, unreadable: 2 });
    expect(report.loops[0]?.runs).toBe(3);
  });
});

describe.skipIf(!reachable)('loopchart health --db postgres://', () => {
  it('reports the runs of a Postgres schema', async () => {
    const capture = captureIo(false);
    const code = await runCli(['health', '--db', PG_URL, '--schema', schema, '--json'], capture.io);
    expect(capture.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(capture.stdout()) as HealthReport;
    expect(timeless(report)).toEqual(expected);
  });
});

describe('bad options', () => {
  it.each([
    [{ thresholds: { exhaustedShare: 2 } }, 'exhaustedShare: Too big'],
    [{ thresholds: { minRun: 3 } }, 'minRun: is not an option (did you mean minRuns?)'],
    [{ sinc: 3 }, 'sinc: is not an option (did you mean since?)'],
    [{ pageSize: 0 }, 'pageSize: Too small'],
  ])('%j throws a LoopConfigError naming the field', async (options, message) => {
    const error = await loopHealth(memory, options as never).catch((e: unknown) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect((error as Error).message).toContain(message);
  });
});
