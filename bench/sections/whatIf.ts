import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopHealth, whatIf } from 'loopchart/health';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import { heldDuringScan } from '../harness/heldDuringScan.js';
import { fixtureStore, replicateRuns } from '../loops/healthRuns.js';
import { median } from '../loops/measure.js';

const SIZES = [1_000, 10_000];
const WEEK_MS = 7 * 86_400_000;
const TARGET_MS = 2_000;
/** Streamed, the heap held mid-re-decision at 10,000 runs stays within this factor of 1,000 runs. */
const FLAT_FACTOR = 1.5;
const CANDIDATE = { maxRetries: 1, fallback: false };

const mb = (bytes: number) => Number((bytes / 2 ** 20).toFixed(2));

async function timed(rounds: number, run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function measure(size: number, dir: string, ctx: BenchContext) {
  const templates = (await (await fixtureStore()).scan({ limit: 10_000 })) ?? [];
  const store = new SqliteCheckpointStore(join(dir, `runs-${size}.db`));
  try {
    await replicateRuns(templates, store, size, { end: Date.now(), spanMs: WEEK_MS });
    const rounds = ctx.quick ? 2 : 7;
    const report = await whatIf(store, { config: CANDIDATE });
    const [summary] = report.candidates;
    if (summary?.runs !== size) throw new Error(`re-decided ${summary?.runs}, not ${size}`);
    const whatIfMs = await timed(rounds, () => whatIf(store, { config: CANDIDATE }));
    const healthMs = await timed(rounds, () => loopHealth(store));
    // CPU time spent by this process: on a busy machine it says what the wall clock cannot
    const cpu = process.cpuUsage();
    await whatIf(store, { config: CANDIDATE });
    const { user, system } = process.cpuUsage(cpu);
    const held = await heldDuringScan(store, await ctx.settledHeap(), (probe) =>
      whatIf(probe, { config: CANDIDATE }),
    );
    return {
      runs: size,
      'what-if ms (median)': Number(whatIfMs.toFixed(1)),
      'what-if CPU ms': Math.round((user + system) / 1000),
      'health ms (median)': Number(healthMs.toFixed(1)),
      'runs/s re-decided': Math.round((size * 1000) / whatIfMs),
      'heap held, streamed MB': mb(held),
      exact: summary.exact,
      unknown: summary.unknown,
    };
  } finally {
    store.close();
  }
}

export const section: BenchSection = {
  name: 'whatIf',
  title: `what-if over stored runs in SQLite (candidate ${JSON.stringify(CANDIDATE)}), beside loopHealth on the same store`,
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'loopchart-bench-what-if-'));
    try {
      const rows = [];
      for (const size of SIZES) rows.push(await measure(size, dir, ctx));
      const [small, large] = rows;
      const ms = large?.['what-if ms (median)'] ?? Number.POSITIVE_INFINITY;
      const growth =
        (large?.['heap held, streamed MB'] ?? 0) /
        Math.max(0.01, small?.['heap held, streamed MB'] ?? 0);
      return {
        rows,
        target: `10,000 runs re-decided < ${TARGET_MS} ms; streamed heap at 10,000 ≤ ${FLAT_FACTOR}× at 1,000`,
        'heap growth 1,000 → 10,000 (streamed)': Number(growth.toFixed(2)),
        met: ms < TARGET_MS && growth <= FLAT_FACTOR ? 'yes' : 'NO',
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
