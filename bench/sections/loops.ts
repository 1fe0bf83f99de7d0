import type { BenchContext, BenchSection } from '../harness/BenchSection.js';
import { langgraphLoop } from '../loops/langgraphLoop.js';
import { loopchart, loopchartBare, loopchartPrebuilt } from '../loops/loopchartLoop.js';
import { concurrentMicros, heapPerLoop, sequentialMicros } from '../loops/measure.js';
import { plainLoop } from '../loops/plainLoop.js';
import { ITERATIONS_PER_LOOP, REFINES_TO_VALID } from '../loops/workload.js';
import { xstateLoop } from '../loops/xstateLoop.js';

const implementations = [
  loopchart,
  loopchartPrebuilt,
  loopchartBare,
  xstateLoop,
  langgraphLoop,
  plainLoop,
];

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function measure(ctx: BenchContext) {
  const inFlight = ctx.quick ? 1_000 : 10_000;
  const sequential = await sequentialMicros(implementations, ctx.quick ? 200 : 1_000);
  ctx.log('sequential done');
  const measured = [];
  for (const impl of implementations) {
    const concurrent = await concurrentMicros(impl, inFlight, 5, ctx.quick ? 2_000 : 20_000, ctx);
    const heap = await heapPerLoop(impl, inFlight, 3, ctx);
    ctx.log(`${impl.name}: ${(heap / 1024).toFixed(2)} KB per loop in flight`);
    measured.push({ impl, sequential: sequential.get(impl.name) ?? Number.NaN, concurrent, heap });
  }
  return { inFlight, measured };
}

export const section: BenchSection = {
  name: 'loops',
  title: `The same loop (valid after ${REFINES_TO_VALID} refines, trivial async steps) on loopchart and its peers`,
  async run(ctx) {
    const { inFlight, measured } = await measure(ctx);
    const figure = (name: string) => {
      const found = measured.find((m) => m.impl.name === name);
      if (!found) throw new Error(`no figures for ${name}`);
      return found;
    };
    const base = figure(loopchart.name);
    const xstate = figure(xstateLoop.name);
    const langgraph = figure(langgraphLoop.name);
    const bare = figure(loopchartBare.name);
    const rows = measured.map((m) => ({
      implementation: m.impl.name,
      'seq µs/iter': round(m.sequential),
      'seq ×lc': round(m.sequential / base.sequential),
      [`${inFlight / 1000}k µs/iter`]: round(m.concurrent.micros),
      [`${inFlight / 1000}k ×lc`]: round(m.concurrent.micros / base.concurrent.micros),
      'KB/loop held': round(m.heap / 1024),
      'heap ×lc': round(m.heap / base.heap),
    }));
    const target = (name: string, measuredValue: number, limit: string, met: boolean) => ({
      target: name,
      measured: round(measuredValue),
      limit,
      met: met ? 'yes' : 'NO',
    });
    const seqRatio = base.sequential / xstate.sequential;
    const concRatio = base.concurrent.micros / xstate.concurrent.micros;
    const lgSeq = langgraph.sequential / base.sequential;
    const lgConc = langgraph.concurrent.micros / base.concurrent.micros;
    const heapRatio = base.heap / xstate.heap;
    const traceSeq = 1 - bare.sequential / base.sequential;
    const traceConc = 1 - bare.concurrent.micros / base.concurrent.micros;
    const targets = [
      target('loopchart ÷ XState floor, sequential', seqRatio, '≤ 1.3', seqRatio <= 1.3),
      target(
        `loopchart ÷ XState floor, ${inFlight} in flight`,
        concRatio,
        '≤ 1.3',
        concRatio <= 1.3,
      ),
      target('LangGraph ÷ loopchart, sequential', lgSeq, '≥ 20', lgSeq >= 20),
      target(`LangGraph ÷ loopchart, ${inFlight} in flight`, lgConc, '≥ 20', lgConc >= 20),
      target('loopchart ÷ XState floor, heap per loop', heapRatio, '≤ 2', heapRatio <= 2),
      target('trace+keys+fingerprints share, sequential', traceSeq, '≤ 0.15', traceSeq <= 0.15),
      target(
        `trace+keys+fingerprints share, ${inFlight} in flight`,
        traceConc,
        '≤ 0.15',
        traceConc <= 0.15,
      ),
    ];
    return {
      workload: `${ITERATIONS_PER_LOOP} attempt→validate iterations and ${REFINES_TO_VALID} refines per loop; µs/iter = loop time ÷ ${ITERATIONS_PER_LOOP}; ×lc = this ÷ loopchart runLoop`,
      heap: `${inFlight} loops held in their attempt after 3 refines; heapUsed after GC minus baseline, ÷ ${inFlight}`,
      rows,
      targets,
      rawMicros: Object.fromEntries(
        measured.map((m) => [
          m.impl.name,
          {
            sequential: m.sequential,
            concurrent: m.concurrent.micros,
            concurrentRounds: m.concurrent.rounds,
            heapBytesPerLoop: m.heap,
          },
        ]),
      ),
    };
  },
};
