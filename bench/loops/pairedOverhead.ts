import { cpuNow, median } from './measure.js';
import { checkResult, type LoopImplementation, taskFor } from './workload.js';

/** What one implementation costs over its baseline, measured in adjacent pairs of segments. */
export interface PairedOverhead {
  /** Median over pairs of (this segment ÷ the baseline's segment) − 1, in %, by wall clock. */
  wallPercent: number;
  /** The same by the process's CPU time (GC and JIT threads included). */
  cpuPercent: number;
  /** Mean µs a loop of this implementation and of its baseline, over all their segments. */
  micros: number;
  baseMicros: number;
  pairs: number;
}

async function segment(impl: LoopImplementation, loops: number, inFlight: boolean) {
  const cpu = cpuNow();
  const wall = performance.now();
  if (inFlight) {
    const runs = Array.from({ length: loops }, (_, n) =>
      impl.run(taskFor(n)).then((result) => checkResult(impl.name, result)),
    );
    await Promise.all(runs);
  } else {
    for (let n = 0; n < loops; n++) checkResult(impl.name, await impl.run(taskFor(n)));
  }
  return { wall: performance.now() - wall, cpu: cpuNow() - cpu };
}

/**
 * Runs `impl` and `base` in `pairs` pairs of adjacent segments of `loops` loops each, one after
 * the other or all at once (`inFlight`; which comes first alternates), and compares each segment
 * with its neighbour. On a shared machine a process
 * drifts between garbage-collection modes that move a loop's time by ±40% for seconds at a time;
 * two neighbouring segments 20 ms apart see the same mode, so the median of their ratios holds
 * still where separate rounds do not.
 */
export async function pairedOverhead(
  impl: LoopImplementation,
  base: LoopImplementation,
  { pairs, loops, inFlight = false }: { pairs: number; loops: number; inFlight?: boolean },
): Promise<PairedOverhead> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let spent = 0;
  let baseSpent = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const first = pair % 2 ? base : impl;
    const a = await segment(first, loops, inFlight);
    const b = await segment(first === base ? impl : base, loops, inFlight);
    const [mine, theirs] = first === base ? [b, a] : [a, b];
    wall.push(mine.wall / theirs.wall);
    cpu.push(mine.cpu / theirs.cpu);
    spent += mine.wall;
    baseSpent += theirs.wall;
  }
  const percent = (ratio: number) => Number(((ratio - 1) * 100).toFixed(1));
  const perLoop = (ms: number) => Number(((ms * 1000) / (pairs * loops)).toFixed(1));
  return {
    wallPercent: percent(median(wall)),
    cpuPercent: percent(median(cpu)),
    micros: perLoop(spent),
    baseMicros: perLoop(baseSpent),
    pairs,
  };
}
