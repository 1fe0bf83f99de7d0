import { createLoopMachine } from 'loopchart';
import { getLoopPaths, type LoopPathOptions } from 'loopchart/testing';
import type { BenchContext, BenchSection } from '../harness/BenchSection.js';

const RETRIES = [3, 10, 50] as const;
// getSimplePaths runs a depth-first search per reachable state: seconds already at maxRetries 10.
const SIMPLE_UP_TO = 3;

interface Timing {
  paths: number;
  wallMs: number;
  cpuMs: number;
}

function enumerate(maxRetries: number, paths: LoopPathOptions['paths']): Timing {
  const machine = createLoopMachine({
    maxRetries,
    attempt: () => 'draft',
    validate: () => ({ valid: true }),
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const found = getLoopPaths(machine, { paths });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { paths: found.length, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** The median run of `rounds`, by wall time. */
function median(rounds: number, run: () => Timing): Timing {
  const runs = Array.from({ length: rounds }, run).sort((a, b) => a.wallMs - b.wallMs);
  return runs[Math.floor(runs.length / 2)] as Timing;
}

const round = (value: number) => Number(value.toFixed(1));

async function measure(ctx: BenchContext) {
  const rounds = ctx.quick ? 1 : 5;
  for (let i = 0; i < 3; i++) enumerate(10, 'shortest'); // JIT warm-up for every size
  const rows = [];
  const shortest = new Map<number, Timing>();
  for (const maxRetries of RETRIES) {
    const timing = median(rounds, () => enumerate(maxRetries, 'shortest'));
    shortest.set(maxRetries, timing);
    ctx.log(
      `shortest paths, maxRetries ${maxRetries}: ${timing.paths} in ${round(timing.wallMs)} ms`,
    );
    rows.push({
      maxRetries,
      kind: 'shortest',
      paths: timing.paths,
      wallMs: round(timing.wallMs),
      cpuMs: round(timing.cpuMs),
    });
    if (maxRetries <= SIMPLE_UP_TO) {
      const simple = median(1, () => enumerate(maxRetries, 'simple'));
      rows.push({
        maxRetries,
        kind: 'simple',
        paths: simple.paths,
        wallMs: round(simple.wallMs),
        cpuMs: round(simple.cpuMs),
      });
    }
  }
  return { rows, shortest };
}

export const section: BenchSection = {
  name: 'paths',
  title: 'Path enumeration with loopchart/testing (getLoopPaths on the default loop)',
  async run(ctx) {
    const { rows, shortest } = await measure(ctx);
    const small = shortest.get(10) as Timing;
    const large = shortest.get(50) as Timing;
    // Linear growth means the extra time per extra retry stays flat: compare 10→50 with 3→10.
    const perRetry = (from: Timing, to: Timing, span: number) => (to.wallMs - from.wallMs) / span;
    return {
      rows,
      'maxRetries 50, shortest paths, wall ms (target < 1000)': round(large.wallMs),
      'extra paths per extra retry, 10 → 50': round((large.paths - small.paths) / 40),
      'extra ms per extra retry, 3 → 10': round(perRetry(shortest.get(3) as Timing, small, 7)),
      'extra ms per extra retry, 10 → 50': round(perRetry(small, large, 40)),
      'simple paths': `maxRetries ≤ ${SIMPLE_UP_TO} only: xstate/graph's getSimplePaths searches once per reachable state`,
    };
  },
};
