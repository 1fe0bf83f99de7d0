import { Bench } from 'tinybench';
import type { BenchContext } from '../harness/BenchSection.js';
import {
  armHold,
  checkResult,
  disarmHold,
  hold,
  ITERATIONS_PER_LOOP,
  type LoopImplementation,
  taskFor,
} from './workload.js';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Median µs per iteration with one loop at a time (tinybench, `timeMs` per implementation). */
export async function sequentialMicros(
  impls: readonly LoopImplementation[],
  timeMs: number,
): Promise<Map<string, number>> {
  const bench = new Bench({ time: timeMs, warmupTime: timeMs / 4, warmupIterations: 20 });
  for (const impl of impls) {
    let n = 0;
    bench.add(impl.name, async () => checkResult(impl.name, await impl.run(taskFor(n++))));
  }
  await bench.run();
  const micros = new Map<string, number>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (!('latency' in result)) throw new Error(`${task.name} did not finish: ${result.state}`);
    micros.set(task.name, (result.latency.p50 * 1000) / ITERATIONS_PER_LOOP);
  }
  return micros;
}

/** Runs `count` loops at once and returns the wall time in ms. */
async function concurrentRound(impl: LoopImplementation, count: number): Promise<number> {
  const started = performance.now();
  const runs: Array<Promise<void>> = [];
  for (let n = 0; n < count; n++) {
    runs.push(impl.run(taskFor(n)).then((result) => checkResult(impl.name, result)));
  }
  await Promise.all(runs);
  return performance.now() - started;
}

/**
 * Median µs per iteration with `count` loops in flight at once: a warm-up round, then `rounds`
 * rounds (fewer when one round is slower than `roundBudgetMs` / `rounds`, never under 2).
 */
export async function concurrentMicros(
  impl: LoopImplementation,
  count: number,
  rounds: number,
  roundBudgetMs: number,
  ctx: BenchContext,
): Promise<{ micros: number; rounds: number }> {
  const warmup = await concurrentRound(impl, count);
  const planned = Math.max(2, Math.min(rounds, Math.floor(roundBudgetMs / warmup)));
  const times: number[] = [];
  for (let round = 0; round < planned; round++) {
    await ctx.settledHeap();
    times.push(await concurrentRound(impl, count));
  }
  ctx.log(
    `${impl.name}: ${count} in flight, rounds ${times.map((t) => t.toFixed(0)).join(', ')} ms`,
  );
  return { micros: (median(times) * 1000) / (count * ITERATIONS_PER_LOOP), rounds: planned };
}

/**
 * Heap per loop in flight: `count` loops held inside their attempt after `afterRefines` refines,
 * `heapUsed` after full GCs minus the baseline, divided by `count`.
 */
export async function heapPerLoop(
  impl: LoopImplementation,
  count: number,
  afterRefines: number,
  ctx: BenchContext,
): Promise<number> {
  const runs: Array<Promise<void>> = new Array(count);
  const baseline = await ctx.settledHeap();
  armHold(afterRefines);
  try {
    for (let n = 0; n < count; n++) {
      runs[n] = impl.run(taskFor(n)).then((result) => checkResult(impl.name, result));
    }
    const deadline = performance.now() + 120_000;
    while (hold.arrived < count) {
      if (performance.now() > deadline) throw new Error(`${impl.name}: only ${hold.arrived} held`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const held = await ctx.settledHeap();
    return (held - baseline) / count;
  } finally {
    disarmHold();
    await Promise.all(runs);
  }
}
