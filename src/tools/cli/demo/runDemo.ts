import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { InspectionEvent } from 'xstate';
import { createLoopMachine } from '../../../core/chart/compileLoop.js';
import type { LoopOutcome } from '../../../core/vocabulary/outcome.js';
import { isPausedRun } from '../../../runners/loop/PausedRun.js';
import { runLoop } from '../../../runners/loop/runLoop.js';
import type { CheckpointStore } from '../../../stores/kit/CheckpointStore.js';
import type { ViewerConnection } from '../../viewer/connectToViewer.js';
import { CliFault, writeFault } from '../cliFault.js';
import type { CliOutput } from '../cliOutput.js';
import { formatMs, plural } from '../format.js';
import { checkRunsFile, storeFault } from '../openRunStore.js';
import type { DemoScenario } from './DemoScenario.js';
import { outcomeSummary } from './outcomeSummary.js';
import { progressPrinter } from './progressPrinter.js';
import { demoScenarios } from './scenarios/index.js';

/** A problem with the demo's options or its environment, reported without a stack. */
export class DemoError extends Error {
  override readonly name = 'DemoError';
}

export interface DemoOptions {
  /** Where the SQLite file (`runs.db`) and the reports go (default `.loopchart`). */
  dir?: string;
  /** A running viewer's WebSocket URL (`loopchart view`): the runs are also shown there, live. */
  viewer?: string;
  /** Only the scenarios with these names (default: all). */
  only?: readonly string[];
}

export interface DemoRun {
  scenario: DemoScenario;
  outcome: LoopOutcome<unknown>;
  durationMs: number;
  /** The run's HTML report. */
  report: string;
}

export const DEFAULT_DEMO_DIR = '.loopchart';

/**
 * Runs the bundled example loops one after another, each checkpointed to SQLite after every step,
 * printing a live line per step, then each outcome and its trace table. Resolves to the runs;
 * `failed` names those that ended other than expected.
 * @example const { failed } = await runDemo(output, { dir: '.loopchart' });
 */
export async function runDemo(
  output: CliOutput,
  { dir = DEFAULT_DEMO_DIR, only, viewer }: DemoOptions = {},
): Promise<{ runs: DemoRun[]; failed: string[] }> {
  const { c } = output;
  const scenarios = pickScenarios(only);
  const database = join(dir, 'runs.db');
  const store = await openStore(dir, database);
  const live = viewer ? await connectViewer(output, viewer) : undefined;
  try {
    const runs = await runAll(output, scenarios, { store, reports: join(dir, 'reports'), live });
    summarize(output, runs);
    const written = performance.now();
    await writeReports(runs);
    const reportsMs = performance.now() - written;
    const stored = await store.list();
    const self = selfCommand();
    output.out();
    output.out(
      `${c.bold('Saved  ')}  ${plural(stored.length, 'run')}, checkpointed after every step, in ${c.cyan(shortPath(database))} (SQLite)`,
    );
    output.out(
      `${c.bold('Reports')}  ${plural(runs.length, 'self-contained HTML page')} in ${c.cyan(shortPath(join(dir, 'reports')))} (${formatMs(reportsMs)}): open ${c.cyan(shortPath(runs[0]?.report ?? dir))} in a browser`,
    );
    output.out(`${c.bold('Runs   ')}  ${c.cyan(`${self} runs list --db ${shortPath(database)}`)}`);
    output.out(
      `${c.bold('Viewer ')}  ${c.cyan(`${self} view`)}, then ${c.cyan(`${self} demo --viewer`)} to watch the loops live`,
    );
    const failed = runs
      .filter((run) => run.outcome.status !== run.scenario.expected)
      .map(
        (run) => `${run.scenario.name} ended ${run.outcome.status}, not ${run.scenario.expected}`,
      );
    return { runs, failed };
  } finally {
    await live?.close();
    await store.close?.();
  }
}

function pickScenarios(only: readonly string[] | undefined): DemoScenario[] {
  const all = demoScenarios();
  const unknown = only?.find((name) => !all.some((s) => s.name === name));
  if (unknown !== undefined) {
    const names = all.map((s) => s.name).join(', ');
    throw new DemoError(`unknown scenario "${unknown}"; the scenarios are ${names}`);
  }
  return all.filter((s) => !only?.length || only.includes(s.name));
}

interface RunPlaces {
  store: CheckpointStore;
  /** The folder the HTML reports are written to. */
  reports: string;
  live: ViewerConnection | undefined;
}

async function runAll(
  output: CliOutput,
  scenarios: readonly DemoScenario[],
  { store, reports, live }: RunPlaces,
): Promise<DemoRun[]> {
  const { c } = output;
  const runs: DemoRun[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    output.out();
    output.out(c.bold(`▸ ${index + 1}/${scenarios.length}  ${scenario.title}`));
    output.out(c.dim(`  ${scenario.name}: ${scenario.shows}`));
    const started = performance.now();
    const runId = scenario.name;
    await store.delete(runId);
    const printer = progressPrinter(output);
    const result = await runLoop(scenario.config, scenario.input, {
      store,
      runId,
      inspect: (event: InspectionEvent) => {
        printer(event);
        live?.inspect.next?.(event);
      },
    });
    if (isPausedRun(result)) throw new DemoError(`${runId} paused unexpectedly in ${result.state}`);
    const durationMs = performance.now() - started;
    runs.push({ scenario, outcome: result, durationMs, report: join(reports, `${runId}.html`) });
    output.out();
    for (const line of outcomeSummary(result, c)) output.out(line);
  }
  return runs;
}

/** Writes each run's static report: the chart, the loop badge, the trace and the error. */
async function writeReports(runs: readonly DemoRun[]): Promise<void> {
  const { writeRunReport } = await import('../../viewer/writeRunReport.js');
  for (const { scenario, outcome, report } of runs) {
    await writeRunReport({
      machine: createLoopMachine(scenario.config),
      outcome,
      title: `${scenario.title}: ${outcome.status}`,
      file: report,
    }).catch((error: unknown) => {
      throw writeFault(error, report) ?? error;
    });
  }
}

/** Connects to a running viewer; an unreachable one is reported once and the demo goes on. */
async function connectViewer(output: CliOutput, url: string): Promise<ViewerConnection> {
  const { connectToViewer } = await import('../../viewer/connectToViewer.js');
  const connection = connectToViewer(url, {
    onError: (error) =>
      output.err(
        `demo: the viewer at ${url} is not reachable (${error.message}); start it with loopchart view`,
      ),
  });
  if (await connection.ready)
    output.out(output.c.dim(`showing the runs live in the viewer at ${url}`));
  return connection;
}

function summarize(output: CliOutput, runs: readonly DemoRun[]): void {
  const { c } = output;
  output.out();
  output.out(
    `${c.bold('Summary')}  ${c.dim('✓ = the run ended as its scenario is meant to (a stop like stalled included), ✗ = it did not')}`,
  );
  const width = Math.max(...runs.map((run) => run.scenario.name.length));
  for (const { scenario, outcome, durationMs } of runs) {
    const padded = outcome.status.padEnd(22);
    const status = outcome.ok ? c.green(padded) : c.yellow(padded);
    const expected = outcome.status === scenario.expected;
    const mark = expected ? c.green('✓') : c.red('✗');
    const counts = `${plural(outcome.iterations, 'refine')}, ${plural(outcome.attempts, 'attempt')}`;
    const miss = expected ? '' : c.red(`  expected ${scenario.expected}`);
    output.out(
      `  ${mark} ${scenario.name.padEnd(width)}  ${status} ${c.dim(`${counts}, ${formatMs(durationMs)}`)}${miss}`,
    );
  }
}

/**
 * The embedded SQLite store in `dir`, once the optional peers the demo needs are there:
 * better-sqlite3 for the store and elkjs for the reports' charts (before any run, not after).
 */
async function openStore(dir: string, file: string): Promise<CheckpointStore> {
  const [sqlite, elk] = await Promise.allSettled([
    import('../../../stores/sqlite/SqliteCheckpointStore.js'),
    import('elkjs/lib/elk.bundled.js'),
  ]);
  const missing = [
    sqlite.status === 'rejected' && 'better-sqlite3@12 (the runs are kept in SQLite)',
    elk.status === 'rejected' && 'elkjs@0.12 (the reports draw the charts with it)',
  ].filter((peer) => peer !== false);
  if (sqlite.status === 'rejected' || missing.length > 0) {
    throw new DemoError(
      `the demo needs the optional peer dependencies ${missing.join(' and ')}: npm install ${missing.map((peer) => peer.split(' ')[0]).join(' ')}`,
    );
  }
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new CliFault('usage', `--dir ${dir} is a file, not a folder`);
  }
  checkRunsFile(file, { write: true, mayBeMissing: true });
  try {
    return new sqlite.value.SqliteCheckpointStore(file);
  } catch (error) {
    throw storeFault(error, file) ?? writeFault(error, file) ?? error;
  }
}

function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

/** How the user ran this CLI: `node dist/entries/cli.js` from a checkout, else `npx loopchart`. */
function selfCommand(): string {
  const script = process.argv[1];
  if (!script) return 'npx loopchart';
  const rel = relative(process.cwd(), script);
  return rel.startsWith('..') || rel.includes('node_modules') ? 'npx loopchart' : `node ${rel}`;
}
