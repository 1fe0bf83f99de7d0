import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CheckpointRecord,
  type CheckpointStore,
  type LoopConfig,
  MemoryCheckpointStore,
  runLoop,
} from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import {
  attempt,
  checkResult,
  type Draft,
  ITERATIONS_PER_LOOP,
  MAX_RETRIES,
  REFINES_TO_VALID,
  refine,
  type Task,
  taskFor,
  validate,
} from '../loops/workload.js';

/** Steps per run of the workload: attempt + validate per iteration, and the refines between. */
const STEPS_PER_RUN = 2 * ITERATIONS_PER_LOOP + REFINES_TO_VALID;
/** One checkpoint when the run starts, then one per step. */
const SAVES_PER_RUN = STEPS_PER_RUN + 1;
const SQLITE = 'sqlite (WAL, synchronous=NORMAL)';

const config: LoopConfig<Task, Draft> = {
  maxRetries: MAX_RETRIES,
  attempt: ({ input }) => attempt(input),
  validate: (candidate) => validate(candidate),
  refine: ({ input, error }) => refine(input, error.message),
};

/** Wraps a store to time each save and keep the sizes it wrote. */
function timed(store: CheckpointStore) {
  const saveMicros: number[] = [];
  const bytes: number[] = [];
  const wrapped: CheckpointStore = {
    async save(record: CheckpointRecord) {
      const started = performance.now();
      await store.save(record);
      saveMicros.push((performance.now() - started) * 1000);
      bytes.push(record.data.length);
    },
    load: (runId) => store.load(runId),
    list: (options) => store.list(options),
    delete: (runId) => store.delete(runId),
  };
  const reset = () => {
    saveMicros.length = 0;
    bytes.length = 0;
  };
  return { store: wrapped, saveMicros, bytes, reset };
}

interface Variant {
  name: string;
  store: ReturnType<typeof timed> | undefined;
}

let runNumber = 0;

async function runOnce(variant: Variant): Promise<void> {
  const n = runNumber++;
  const task = taskFor(n);
  const outcome = variant.store
    ? await runLoop(config, task, { store: variant.store.store, runId: `bench-${n}` })
    : await runLoop(config, task);
  if (outcome.status === 'paused') throw new Error('the workload never pauses');
  const candidate = outcome.status === 'proceed' ? outcome.candidate : undefined;
  checkResult(variant.name, { candidate, iterations: outcome.iterations });
}

/** Median ms per run, one run at a time, interleaving variants so drift hits all alike. */
async function sequentialRuns(variants: Variant[], runs: number, ctx: BenchContext) {
  const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let round = 0; round < runs; round++) {
    for (const variant of variants) {
      const started = performance.now();
      await runOnce(variant);
      times.get(variant.name)?.push(performance.now() - started);
    }
    if (round % 200 === 199) ctx.log(`${round + 1}/${runs} rounds`);
  }
  return times;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export const section: BenchSection = {
  name: 'checkpoints',
  title: `Checkpoint cost: the loops workload (${STEPS_PER_RUN} steps per run) saved after every step, memory vs SQLite`,
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'loopchart-bench-'));
    const sqlite = new SqliteCheckpointStore(join(dir, 'runs.db'));
    const sqliteFull = new SqliteCheckpointStore(join(dir, 'runs-full.db'), {
      synchronous: 'FULL',
    });
    try {
      const variants: Variant[] = [
        { name: 'no store', store: undefined },
        { name: 'memory', store: timed(new MemoryCheckpointStore()) },
        { name: SQLITE, store: timed(sqlite) },
      ];
      // FULL syncs the disk on every save: a few runs show its price without dominating the time.
      const full: Variant = { name: 'sqlite (WAL, synchronous=FULL)', store: timed(sqliteFull) };
      await sequentialRuns([...variants, full], ctx.quick ? 10 : 50, ctx);
      for (const v of [...variants, full]) v.store?.reset();
      const times = await sequentialRuns(variants, ctx.quick ? 150 : 1_500, ctx);
      const fullTimes = await sequentialRuns([full], ctx.quick ? 10 : 40, ctx);
      for (const [name, list] of fullTimes) times.set(name, list);
      const perRun = (name: string) => median(times.get(name) ?? []);
      const bare = perRun('no store');
      const rows = [...variants, full].map((v) => {
        const ms = perRun(v.name);
        return {
          store: v.name,
          'ms/run': round(ms, 3),
          'runs/s': Math.round(1000 / ms),
          'save µs median': v.store ? round(median(v.store.saveMicros)) : null,
          'save µs mean': v.store ? round(mean(v.store.saveMicros)) : null,
          'checkpoint µs/step': v.store ? round(((ms - bare) * 1000) / SAVES_PER_RUN) : null,
          'KB/checkpoint': v.store ? round(median(v.store.bytes) / 1024) : null,
        };
      });
      const memory = perRun('memory');
      const ratio = memory / perRun(SQLITE);
      return {
        rows,
        'saves per run': SAVES_PER_RUN,
        'SQLite throughput ÷ memory': round(ratio),
        target: '≥ 0.5',
        met: ratio >= 0.5 ? 'yes' : 'NO',
      };
    } finally {
      sqlite.close();
      sqliteFull.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
