import { getLoopPaths } from 'loopchart/testing';
import { invoiceLoop, invoiceSteps } from '../../examples/path-samples/invoiceLoop.js';
import { invoiceSamples } from '../../examples/path-samples/invoiceSamples.js';
import type { BenchSection } from '../harness/BenchSection.js';

const input = { text: 'Paper 12.50 Ink 7.25 Total 19.75' };
const round = (value: number) => Number(value.toFixed(1));

/** Enumerates and replays every path of the README's invoice loop, the way its suite does. */
async function suite(withSamples: boolean) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const paths = withSamples
    ? getLoopPaths(invoiceLoop, { input, samples: invoiceSamples, realSteps: invoiceSteps })
    : getLoopPaths(invoiceLoop, { input });
  const replayed = paths.filter((path) => path.skipped === undefined);
  for (const path of replayed) await path.replay();
  const used = process.cpuUsage(cpu);
  return {
    replay: withSamples ? 'samples + real steps' : 'scripted',
    paths: replayed.length,
    wallMs: round(performance.now() - started),
    cpuMs: round((used.user + used.system) / 1000),
  };
}

export const section: BenchSection = {
  name: 'pathSamples',
  title:
    "A user's path suite (README block: maxRetries 3, fallback, review), scripted vs own steps",
  async run(ctx) {
    const rounds = ctx.quick ? 1 : 3;
    await suite(true); // JIT warm-up
    const rows = [];
    for (const withSamples of [false, true]) {
      const runs = [];
      for (let i = 0; i < rounds; i++) runs.push(await suite(withSamples));
      runs.sort((a, b) => a.wallMs - b.wallMs);
      const median = runs[Math.floor(runs.length / 2)] as (typeof runs)[number];
      ctx.log(`${median.replay}: ${median.paths} paths in ${median.wallMs} ms`);
      rows.push(median);
    }
    const own = rows[1] as (typeof rows)[number];
    return {
      rows,
      'samples + real steps, every path, wall ms (target < 10000)': own.wallMs,
      'cost of samples + real steps over scripted': `${round(own.wallMs / (rows[0]?.wallMs ?? 1))}x`,
    };
  },
};
