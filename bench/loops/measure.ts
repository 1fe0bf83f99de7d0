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

/** Microseconds per iteration, by the process's CPU time and by the wall clock. */
export interface Micros {
  cpu: number;
  wall: number;
}

/** One implementation's figures in the loops section. */
export interface ImplFigures {
  name: string;
  sequential: Micros;
  /** How many loops were in flight at once, when it ran in flight. */
  inFlight?: number;
  concurrent?: InFlightFigures;
  /** This ÷ the minimal XState machine in adjacent pairs of segments, where it was measured so. */
  overFloor?: { sequential: Micros; concurrent: Micros };
}

/** This process's CPU time (user + system, all threads) in ms. */
export const cpuNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

const perIteration = (ms: number, loops: number) => (ms * 1000) / (loops * ITERATIONS_PER_LOOP);

/** Loops a tinybench sample runs one after the other: GC pauses and timer overhead spread out. */
const BATCH = 10;

/**
 * One loop at a time, after `warmupMs` of runs per implementation. Each round is a tinybench run
 * of every implementation (a sample: `BATCH` loops in a row, by wall clock, with the CPU time kept
 * too); a figure is the median over rounds of each round's mean sample. Rounds interleave the
 * implementations (each starting with the next one), so a change of load on a shared machine hits
 * all of them alike. No GC is forced in between: a forced GC shrinks the heap and makes the next
 * runs collect more often than they would.
 */
export async function sequentialMicros(
  impls: readonly LoopImplementation[],
  { rounds, timeMs, warmupMs }: { rounds: number; timeMs: number; warmupMs: number },
): Promise<Map<string, Micros>> {
  const cpu = new Map<string, number[]>(impls.map((impl) => [impl.name, []]));
  const wall = new Map<string, number[]>(impls.map((impl) => [impl.name, []]));
  // The JIT keeps optimizing loopchart's code for its first few hundred runs.
  for (const impl of impls) {
    const until = performance.now() + warmupMs;
    for (let n = 0; performance.now() < until; n++) {
      checkResult(impl.name, await impl.run(taskFor(n)));
    }
  }
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({
      time: timeMs,
      iterations: 4,
      warmupTime: timeMs / 5,
      warmupIterations: 1,
    });
    const cpuSamples = new Map<string, number[]>();
    const order = impls.map((_, i) => impls[(i + round) % impls.length] as LoopImplementation);
    for (const impl of order) {
      const samples: number[] = [];
      cpuSamples.set(impl.name, samples);
      let n = 0;
      bench.add(impl.name, async () => {
        const started = cpuNow();
        for (let b = 0; b < BATCH; b++) checkResult(impl.name, await impl.run(taskFor(n++)));
        samples.push(cpuNow() - started);
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (!('latency' in result)) throw new Error(`${task.name} did not finish: ${result.state}`);
      wall.get(task.name)?.push(perIteration(result.period, BATCH));
      cpu.get(task.name)?.push(perIteration(mean(cpuSamples.get(task.name) ?? []), BATCH));
    }
  }
  return new Map(
    impls.map((impl) => [
      impl.name,
      { cpu: median(cpu.get(impl.name) ?? []), wall: median(wall.get(impl.name) ?? []) },
    ]),
  );
}

/** CPU and wall milliseconds spent between two readings. */
interface Spent {
  cpu: number;
  wall: number;
}

const reading = (): Spent => ({ cpu: cpuNow(), wall: performance.now() });
const since = (start: Spent): Spent => ({
  cpu: cpuNow() - start.cpu,
  wall: performance.now() - start.wall,
});

function startLoops(impl: LoopImplementation, count: number): Array<Promise<void>> {
  const runs: Array<Promise<void>> = new Array(count);
  for (let n = 0; n < count; n++) {
    runs[n] = impl.run(taskFor(n)).then((result) => checkResult(impl.name, result));
  }
  return runs;
}

/** Runs `count` loops at once to their end. */
async function concurrentRound(impl: LoopImplementation, count: number): Promise<Spent> {
  const start = reading();
  await Promise.all(startLoops(impl, count));
  return since(start);
}

/**
 * A round that also weighs the loops: all `count` are held inside their attempt after
 * `afterRefines` refines, `heapUsed` after full GCs minus the baseline gives the bytes per loop,
 * then they are released to finish. The GCs are left out of the round's time.
 */
async function heldRound(
  impl: LoopImplementation,
  count: number,
  afterRefines: number,
  ctx: BenchContext,
) {
  const baseline = await ctx.settledHeap();
  armHold(afterRefines);
  let runs: Array<Promise<void>> = [];
  try {
    const start = reading();
    runs = startLoops(impl, count);
    const deadline = performance.now() + 300_000;
    while (hold.arrived < count) {
      if (performance.now() > deadline) throw new Error(`${impl.name}: only ${hold.arrived} held`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const toHold = since(start);
    const heapBytes = ((await ctx.settledHeap()) - baseline) / count;
    const release = reading();
    disarmHold();
    await Promise.all(runs);
    const rest = since(release);
    return { heapBytes, cpu: toHold.cpu + rest.cpu, wall: toHold.wall + rest.wall };
  } finally {
    disarmHold();
    await Promise.allSettled(runs);
  }
}

/** What the in-flight rounds give for one implementation. */
export interface InFlightFigures extends Micros {
  heapBytes: number;
  rounds: number;
}

/**
 * Many loops in flight at once (`count(impl)`): a warm-up with a tenth of them, then rounds that
 * interleave the implementations. The first round holds the loops mid-run to weigh them (heap per
 * loop); more rounds follow while an implementation's rounds so far fit in `budgetMs` of CPU, up to
 * `maxRounds`. Time figures are the median round, per iteration.
 */
export async function inFlightFigures(
  impls: readonly LoopImplementation[],
  count: (impl: LoopImplementation) => number,
  options: { maxRounds: number; budgetMs: number; afterRefines: number },
  ctx: BenchContext,
): Promise<Map<string, InFlightFigures>> {
  for (const impl of impls) await concurrentRound(impl, Math.ceil(count(impl) / 10));
  const rounds = new Map(impls.map((impl) => [impl.name, [] as Spent[]]));
  const heap = new Map<string, number>();
  for (let round = 0; round < options.maxRounds; round++) {
    for (const impl of impls) {
      const spent = rounds.get(impl.name) ?? [];
      const used = spent.reduce((sum, s) => sum + s.cpu, 0);
      if (round > 1 && used + used / spent.length > options.budgetMs) continue;
      if (round === 0) {
        const held = await heldRound(impl, count(impl), options.afterRefines, ctx);
        heap.set(impl.name, held.heapBytes);
        spent.push(held);
      } else {
        spent.push(await concurrentRound(impl, count(impl)));
      }
      const last = spent.at(-1) as Spent;
      ctx.log(
        `${impl.name}: ${count(impl)} in flight, round ${round + 1}: ${(last.wall / 1000).toFixed(1)} s`,
      );
    }
  }
  return new Map(
    impls.map((impl) => {
      const spent = rounds.get(impl.name) ?? [];
      const per = (ms: number) => perIteration(ms, count(impl));
      return [
        impl.name,
        {
          cpu: median(spent.map((s) => per(s.cpu))),
          wall: median(spent.map((s) => per(s.wall))),
          heapBytes: heap.get(impl.name) ?? Number.NaN,
          rounds: spent.length,
        },
      ];
    }),
  );
}
