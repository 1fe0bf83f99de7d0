/**
 * `npm run bench`: runs every section registered in bench/sections/index.ts, prints each one's
 * figures to stdout and writes them all to bench/results.json.
 * Each section runs in a process of its own (harness/sectionInChild.ts).
 * Usage: npm run bench [-- --quick] [-- <section name> ...]
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchFigures, BenchSection } from './harness/BenchSection.js';
import { formatFigures } from './harness/formatFigures.js';
import { CHILD_FLAG, sectionInChild } from './harness/sectionInChild.js';
import { settledHeap } from './harness/settledHeap.js';
import * as registered from './sections/index.js';

const resultsFile = fileURLToPath(new URL('../../bench/results.json', import.meta.url));

async function main(args: string[]): Promise<number> {
  const quick = args.includes('--quick');
  const child = args.indexOf(CHILD_FLAG);
  if (child >= 0) return runChild(args[0] as string, args[child + 1] as string, quick);
  const wanted = args.filter((arg) => !arg.startsWith('--'));
  const all = Object.values<BenchSection>(registered);
  const unknown = wanted.filter((name) => !all.some((section) => section.name === name));
  if (unknown.length > 0) {
    const names = all.map((section) => section.name).join(', ');
    console.error(`unknown bench section(s): ${unknown.join(', ')}; registered: ${names}`);
    return 2;
  }
  const sections = wanted.length ? all.filter((s) => wanted.includes(s.name)) : all;
  const results: Record<string, BenchFigures | { error: string }> = {};
  let failed = 0;
  const started = performance.now();
  const startLoad = os.loadavg();
  console.log(`loopchart bench on ${machineLine()}${quick ? ' (quick)' : ''}`);
  for (const section of sections) {
    console.log(`\n== ${section.title} [${section.name}] ==`);
    const sectionStart = performance.now();
    try {
      const figures = await sectionInChild(fileURLToPath(import.meta.url), section.name, quick);
      results[section.name] = figures;
      console.log(formatFigures(figures));
    } catch (error) {
      failed++;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results[section.name] = { error: message };
      console.log(`FAILED: ${message}`);
    }
    console.error(
      `  (${section.name}: ${((performance.now() - sectionStart) / 1000).toFixed(1)} s)`,
    );
  }
  const load = `load average ${loadLine(startLoad)} at the start, ${loadLine(os.loadavg())} at the end`;
  console.log(`\n${load}`);
  const report = {
    machine: machine(),
    quick,
    ranAt: new Date().toISOString(),
    loadAverage: { start: startLoad, end: os.loadavg() },
    sections: results,
  };
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\nwrote ${resultsFile} (${seconds} s)`);
  return failed > 0 ? 1 : 0;
}

/** In a section's own process: runs it and writes `{ figures }` or `{ error }` to `out`. */
async function runChild(name: string, out: string, quick: boolean): Promise<number> {
  const section = Object.values<BenchSection>(registered).find((s) => s.name === name);
  const ctx: BenchContext = {
    quick,
    log: (message) => console.error(`  … ${message}`),
    settledHeap,
  };
  try {
    if (!section) throw new Error(`no bench section ${name}`);
    writeFileSync(out, JSON.stringify({ figures: await section.run(ctx) }));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeFileSync(out, JSON.stringify({ error: message }));
    return 1;
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cores: os.availableParallelism(),
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  };
}

// Other processes on the machine move the figures: the 1-minute load average says how busy it was.
const loadLine = (load: number[]) => (load[0] ?? 0).toFixed(2);

function machineLine(): string {
  const m = machine();
  return `Node ${m.node.slice(1)}, ${m.cores} cores (${m.cpu}), ${m.platform}`;
}

const code = await main(process.argv.slice(2));
// a section's own process may hold what the section left open (pollers, sockets): it ends here
if (process.argv.includes(CHILD_FLAG)) process.exit(code);
process.exitCode = code;
