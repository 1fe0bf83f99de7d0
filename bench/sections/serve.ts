import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import { fixtureStore, replicateRuns } from '../loops/healthRuns.js';

const SIZES = [1_000, 10_000];
const WEEK_MS = 7 * 86_400_000;
/** A page of runs, filtered or not, at 10,000 stored runs. */
const TARGET_MS = 250;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
};

/** Median ms of a GET over real HTTP, body read and parsed. */
async function timeGet(url: string, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.json();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    times.push(performance.now() - started);
  }
  return Number(median(times).toFixed(1));
}

async function measure(size: number, dir: string, ctx: BenchContext) {
  const templates = (await (await fixtureStore()).scan({ limit: 10_000 })) ?? [];
  const store = new SqliteCheckpointStore(join(dir, `runs-${size}.db`));
  await replicateRuns(templates, store, size, { end: Date.now(), spanMs: WEEK_MS });
  const server = await serveRuns({ store, port: 0 });
  try {
    const rounds = ctx.quick ? 3 : 15;
    const api = (path: string) => new URL(path, server.url).href;
    const first = (await (await fetch(api('/api/runs?limit=50'))).json()) as {
      runs: { runId: string; machineId: string }[];
      next: string;
    };
    const loop = first.runs[0]?.machineId ?? '';
    return {
      runs: size,
      'page of 50 ms': await timeGet(api('/api/runs?limit=50'), rounds),
      'filtered page ms': await timeGet(api(`/api/runs?status=done&loop=${loop}&since=3d`), rounds),
      'next page ms': await timeGet(api(`/api/runs?limit=50&cursor=${first.next}`), rounds),
      'run detail ms': await timeGet(api(`/api/runs/${first.runs[0]?.runId}`), rounds),
      'health ms': await timeGet(api('/api/health'), ctx.quick ? 1 : 3),
    };
  } finally {
    await server.close();
    store.close();
  }
}

export const section: BenchSection = {
  name: 'serve',
  title: 'The HTTP run API over stored runs in SQLite: one GET each, over loopback, median ms',
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'loopchart-bench-serve-'));
    try {
      const rows = [];
      for (const size of SIZES) rows.push(await measure(size, dir, ctx));
      const large = rows.at(-1);
      const worst = Math.max(
        large?.['page of 50 ms'] ?? Infinity,
        large?.['filtered page ms'] ?? Infinity,
        large?.['next page ms'] ?? Infinity,
      );
      return {
        rows,
        target: `a page of runs at 10,000 stored runs < ${TARGET_MS} ms`,
        met: worst < TARGET_MS ? 'yes' : 'NO',
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
