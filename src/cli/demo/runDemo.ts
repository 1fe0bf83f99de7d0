import { type LoopOutcome, runLoop } from '../../index.js';
import type { CliOutput } from '../cliOutput.js';
import { formatMs, plural } from '../format.js';
import type { DemoScenario } from './DemoScenario.js';
import { outcomeSummary } from './outcomeSummary.js';
import { progressPrinter } from './progressPrinter.js';
import { demoScenarios } from './scenarios/index.js';
import { traceTable } from './traceTable.js';

/** A problem with the demo's options, reported without a stack. */
export class DemoError extends Error {
  override readonly name = 'DemoError';
}

export interface DemoOptions {
  /** Only the scenarios with these names (default: all). */
  only?: readonly string[];
}

export interface DemoRun {
  scenario: DemoScenario;
  outcome: LoopOutcome<unknown>;
  durationMs: number;
}

/**
 * Runs the bundled example loops one after another, printing a live line per step, then each
 * outcome and its trace table. Resolves to the runs; `failed` names those that ended unexpectedly.
 * @example const { failed } = await runDemo(output);
 */
export async function runDemo(
  output: CliOutput,
  { only }: DemoOptions = {},
): Promise<{ runs: DemoRun[]; failed: string[] }> {
  const { c } = output;
  const all = demoScenarios();
  const unknown = only?.find((name) => !all.some((s) => s.name === name));
  if (unknown !== undefined) {
    const names = all.map((s) => s.name).join(', ');
    throw new DemoError(`unknown scenario "${unknown}"; the scenarios are ${names}`);
  }
  const scenarios = all.filter((s) => !only?.length || only.includes(s.name));
  const runs: DemoRun[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    output.out();
    output.out(c.bold(`▸ ${index + 1}/${scenarios.length}  ${scenario.title}`));
    output.out(c.dim(`  ${scenario.name}: ${scenario.shows}`));
    const started = performance.now();
    const outcome = await runLoop(scenario.config, scenario.input, {
      inspect: progressPrinter(output),
    });
    const run = { scenario, outcome, durationMs: performance.now() - started };
    runs.push(run);
    output.out();
    for (const line of outcomeSummary(outcome, c)) output.out(line);
    output.out();
    for (const line of traceTable(outcome.trace, c)) output.out(`  ${line}`);
  }
  const failed = runs
    .filter((run) => run.outcome.status !== run.scenario.expected)
    .map(
      (run) =>
        `${run.scenario.name} ended ${run.outcome.status}, expected ${run.scenario.expected}`,
    );
  summarize(output, runs);
  return { runs, failed };
}

function summarize(output: CliOutput, runs: readonly DemoRun[]): void {
  const { c } = output;
  output.out();
  output.out(c.bold('Summary'));
  const width = Math.max(...runs.map((run) => run.scenario.name.length));
  for (const { scenario, outcome, durationMs } of runs) {
    const padded = outcome.status.padEnd(22);
    const status = outcome.ok ? c.green(padded) : c.yellow(padded);
    const mark = outcome.status === scenario.expected ? c.green('✓') : c.red('✗ unexpected');
    const counts = `${plural(outcome.iterations, 'refine')}, ${plural(outcome.attempts, 'attempt')}`;
    output.out(
      `  ${mark} ${scenario.name.padEnd(width)}  ${status} ${c.dim(`${counts}, ${formatMs(durationMs)}`)}`,
    );
  }
}
