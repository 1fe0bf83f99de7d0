import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import { chartFloorLoop } from '../loops/chartFloorLoop.js';
import { langgraphLoop } from '../loops/langgraphLoop.js';
import {
  contextKeyCount,
  loopchart,
  loopchartBare,
  loopchartPerCall,
  loopchartPlan,
} from '../loops/loopchartLoop.js';
import { type ImplFigures, inFlightFigures, sequentialMicros } from '../loops/measure.js';
import { type OverFloor, overFloor } from '../loops/overFloor.js';
import { plainLoop } from '../loops/plainLoop.js';
import { targetRows } from '../loops/targets.js';
import { tracingRows } from '../loops/tracingLoops.js';
import {
  ITERATIONS_PER_LOOP,
  type LoopImplementation,
  REFINES_TO_VALID,
} from '../loops/workload.js';
import { xstateLoop, xstateLoopAgain, xstateRoutedLoop } from '../loops/xstateLoop.js';

const IMPLEMENTATIONS = [
  loopchart,
  loopchartPlan,
  loopchartPerCall,
  loopchartBare,
  xstateLoop,
  xstateRoutedLoop,
  chartFloorLoop,
  langgraphLoop,
  plainLoop,
];
/** Those the targets compare with the minimal XState machine, in adjacent pairs. */
const PAIRED_WITH_FLOOR = [
  loopchart,
  loopchartPlan,
  loopchartPerCall,
  loopchartBare,
  chartFloorLoop,
  // the floor against itself: how far apart two measurements of one thing come out here
  xstateLoopAgain,
];
/** The loops are weighed while held in their attempt after this many refines. */
const HELD_AFTER_REFINES = 3;

async function measure(
  ctx: BenchContext,
): Promise<{ full: number; figures: ImplFigures[]; noise: OverFloor | undefined }> {
  const full = ctx.quick ? 1_000 : 10_000;
  // LangGraph is ~20× slower per iteration: a tenth of the loops keeps the bench to minutes.
  const count = (impl: LoopImplementation) => (impl === langgraphLoop ? full / 10 : full);
  const sequential = await sequentialMicros(
    IMPLEMENTATIONS,
    ctx.quick
      ? { rounds: 2, timeMs: 100, warmupMs: 300 }
      : { rounds: 8, timeMs: 150, warmupMs: 1_500 },
  );
  ctx.log('one loop at a time: done');
  const inFlight = await inFlightFigures(
    IMPLEMENTATIONS,
    count,
    { maxRounds: 3, budgetMs: ctx.quick ? 2_000 : 45_000, afterRefines: HELD_AFTER_REFINES },
    ctx,
  );
  const paired = await overFloor(PAIRED_WITH_FLOOR, xstateLoop, full, ctx);
  const figures = IMPLEMENTATIONS.map((impl) => ({
    name: impl.name,
    sequential: sequential.get(impl.name) ?? { cpu: Number.NaN, wall: Number.NaN },
    inFlight: count(impl),
    concurrent: inFlight.get(impl.name),
    overFloor: paired.get(impl.name),
  }));
  return { full, figures, noise: paired.get(xstateLoopAgain.name) };
}

const round = (value: number | undefined, digits = 2) =>
  value === undefined ? undefined : Number(value.toFixed(digits));
const ratio = (value: number | undefined, of: number | undefined) =>
  value === undefined || of === undefined ? undefined : round(value / of);

function tables(figures: readonly ImplFigures[]) {
  const lc = figures[0] as ImplFigures;
  const rows = figures.map((f) => ({
    implementation: f.name,
    'seq µs/iter': round(f.sequential.wall, 1),
    'seq ×lc': ratio(f.sequential.wall, lc.sequential.wall),
    'in flight': f.inFlight,
    'conc µs/iter': round(f.concurrent?.wall, 1),
    'conc ×lc': ratio(f.concurrent?.wall, lc.concurrent?.wall),
    'KB/loop held': round((f.concurrent?.heapBytes ?? Number.NaN) / 1024),
    'heap ×lc': ratio(f.concurrent?.heapBytes, lc.concurrent?.heapBytes),
  }));
  const cpuTime = figures.map((f) => ({
    implementation: f.name,
    'seq µs/iter': round(f.sequential.cpu, 1),
    'seq ×lc': ratio(f.sequential.cpu, lc.sequential.cpu),
    'conc µs/iter': round(f.concurrent?.cpu, 1),
    'conc ×lc': ratio(f.concurrent?.cpu, lc.concurrent?.cpu),
    rounds: f.concurrent?.rounds,
  }));
  return { rows, cpuTime };
}

export const section: BenchSection = {
  name: 'loops',
  title: `One loop (valid after ${REFINES_TO_VALID} refines, trivial async steps) on loopchart and its peers`,
  async run(ctx) {
    const { full, figures, noise } = await measure(ctx);
    const keys = contextKeyCount();
    return {
      workload: `${ITERATIONS_PER_LOOP} attempt→validate iterations and ${REFINES_TO_VALID} refines per loop; µs/iter = a loop's time ÷ ${ITERATIONS_PER_LOOP}`,
      timing:
        'wall clock (the CPU time of the process, GC and JIT threads included, below); median of rounds that interleave the implementations; ×lc = this ÷ loopchart runLoop',
      heap: `the loops in flight held in their attempt after ${HELD_AFTER_REFINES} refines: heapUsed after full GCs minus the baseline, per loop`,
      ...tables(figures),
      targetsTiming: `the targets ÷ the XState floor are medians over adjacent pairs of segments, each loopchart row beside the minimal machine (which comes first alternates): ${ctx.quick ? '3 pairs of 50' : '15 pairs of 300'} loops one at a time, ${ctx.quick ? '1 pair' : '3 pairs'} of ${full} in flight; the (noise) rows pair the minimal machine with a second copy of itself the same way`,
      targets: targetRows(figures, full, noise),
      tracing: await tracingRows(ctx),
      contextKeys: `${keys} top-level keys in the loop machine's context${keys >= 20 ? ' (20 or more: V8 copies it as a slow dictionary on every assign)' : ''}`,
    };
  },
};
