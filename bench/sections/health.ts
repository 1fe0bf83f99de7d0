import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopHealth } from 'loopchart/health';
import { decodeCheckpoint } from 'loopchart/persistence';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import { heldDuringScan } from '../harness/heldDuringScan.js';
import { fixtureStore, replicateRuns } from '../loops/healthRuns.js';
import { median } from '../loops/measure.js';

const SIZES = [1_000, 10_000];
const WEEK_MS = 7 * 86_400_000;
const TARGET_MS = 2_000;
/** Streamed, the heap held mid-report at 10,000 runs stays within this factor of 1,000 runs. */
const FLAT_FACTOR = 1.5;

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number) => Number((bytes / 2 ** 20).toFixed(2));

/** The heap a report holds if it loads every run before counting (the naive reader). */
async function heldLoadingAll(store: SqliteCheckpointStore, baseline: number) {
  const all = [];
  for (const summary of await store.list()) {
    const record = await store.load(summary.runId);
    if (record) all.push(decodeCheckpoint(record));
  }
  gc();
  const held = process.memoryUsage().heapUsed - baseline;
  if (all.length === 0) throw new Error('no runs loaded');
  return held;
}

async function measure(size: number, dir: string, ctx: BenchContext) {
  const templates = (await (await fixtureStore()).scan({ limit: 10_000 })) ?? [];
  const file = join(dir, `runs-${size}.db`);
  const store = new SqliteCheckpointStore(file);
  try {
    const seeded = performance.now();
    await replicateRuns(templates, store, size, { end: Date.now(), spanMs: WEEK_MS });
    ctx.log(`${size} runs saved in ${Math.round(performance.now() - seeded)} ms`);
    const times: number[] = [];
    let report: Awaited<ReturnType<typeof loopHealth>> | undefined;
    for (let round = 0; round < (ctx.quick ? 2 : 7); round++) {
      const started = performance.now();
      report = await loopHealth(store);
      times.push(performance.now() - started);
    }
    if (report?.scanned !== size) throw new Error(`scanned ${report?.scanned}, not ${size}`);
    const baseline = await ctx.settledHeap();
    const streamed = await heldDuringScan(store, baseline, (probe) => loopHealth(probe));
    const loadedAll = await heldLoadingAll(store, await ctx.settledHeap());
    const ms = median(times);
    return {
      runs: size,
      'report ms (median)': Number(ms.toFixed(1)),
      'runs/s': Math.round((size * 1000) / ms),
      'heap held, streamed MB': mb(streamed),
      'heap held, load-all MB': mb(loadedAll),
      'red flags': report.loops.reduce((n, loop) => n + loop.flags.length, 0),
    };
  } finally {
    store.close();
  }
}

export const section: BenchSection = {
  name: 'health',
  title:
    'loopHealth over stored runs in SQLite: time, and heap held mid-report (streamed vs loading every run)',
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'loopchart-bench-health-'));
    try {
      const rows = [];
      for (const size of SIZES) rows.push(await measure(size, dir, ctx));
      const [small, large] = rows;
      const ms = large?.['report ms (median)'] ?? Number.POSITIVE_INFINITY;
      const growth =
        (large?.['heap held, streamed MB'] ?? 0) /
        Math.max(0.01, small?.['heap held, streamed MB'] ?? 0);
      return {
        rows,
        target: `10,000 runs < ${TARGET_MS} ms; streamed heap at 10,000 ≤ ${FLAT_FACTOR}× at 1,000`,
        'heap growth 1,000 → 10,000 (streamed)': Number(growth.toFixed(2)),
        met: ms < TARGET_MS && growth <= FLAT_FACTOR ? 'yes' : 'NO',
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
