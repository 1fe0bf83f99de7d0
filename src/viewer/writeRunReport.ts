import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type AnyStateMachine, initialTransition } from 'xstate';
import type { AnyLoopConfig } from '../AnyLoopConfig.js';
import { type LoopConfig, resolveConfig } from '../config.js';
import { toMachineJson } from '../diagram/toMachineJson.js';
import { glanceLoop } from '../machines/loopView.js';
import { sharedLoopMachine } from '../machines/sharedLoopMachine.js';
import type { LoopOutcome } from '../outcome.js';
import { layoutChart } from './layoutChart.js';
import { renderPage } from './page/renderPage.js';
import type { RunView } from './runView.js';
import { toJsonSafe } from './toJsonSafe.js';

/**
 * What a run report shows: the outcome, drawn on its chart — the machine it ran on, or the loop
 * config a `runLoop` caller holds (the chart is the one `runLoop` ran).
 */
export type RunReportInput = {
  outcome: LoopOutcome;
  /** Page title and run label. Default: `<machine id>: <status>`. */
  title?: string;
} & (
  | { machine: AnyStateMachine; config?: undefined }
  | { config: AnyLoopConfig; machine?: undefined }
);

/**
 * Renders a finished run as one self-contained HTML page (inline script and styles, no network):
 * the statechart with the final state, the loop badge, the trace timeline and the `LoopError`.
 * @example const html = await renderRunReport({ config, outcome }); // or { machine, outcome }
 */
export async function renderRunReport(input: RunReportInput): Promise<string> {
  const { outcome, title } = input;
  const machine = input.machine ?? chartOf(input.config);
  const layout = await layoutChart(toMachineJson(machine));
  const label = title ?? `${machine.id}: ${outcome.status}`;
  const now = Date.now();
  const run: RunView = {
    id: 'report',
    label,
    machineId: machine.id,
    chartId: 'chart',
    status: 'done',
    connected: true,
    value: outcome.status,
    retryCount: outcome.iterations,
    ...maxRetriesOf(machine),
    candidate: toJsonSafe(lastCandidate(outcome)),
    trace: outcome.trace.map((entry) => toJsonSafe(entry)),
    output: toJsonSafe(outcome),
    startedAt: outcome.trace[0]?.startedAt ?? now,
    updatedAt: now,
    eventCount: 0,
    droppedEvents: 0,
    recentEvents: [],
  };
  return renderPage({ mode: 'static', runs: [run], charts: { chart: layout } }, label);
}

/**
 * Writes `renderRunReport`'s page to `file` (folders created) and resolves to the file's path.
 * @example await writeRunReport({ machine, outcome, file: 'artifacts/run.html' });
 */
export async function writeRunReport(input: RunReportInput & { file: string }): Promise<string> {
  const html = await renderRunReport(input);
  await mkdir(dirname(input.file), { recursive: true });
  await writeFile(input.file, html, 'utf8');
  return input.file;
}

function chartOf(config: AnyLoopConfig): AnyStateMachine {
  return sharedLoopMachine(config.id ?? 'loop', resolveConfig(config as LoopConfig));
}

function lastCandidate(outcome: LoopOutcome): unknown {
  if ('candidate' in outcome) return outcome.candidate;
  return 'partial' in outcome ? outcome.partial : undefined;
}

/** The cap the badge counts against, read from the machine's initial context (no actor runs). */
function maxRetriesOf(machine: AnyStateMachine): { maxRetries?: number } {
  try {
    const [snapshot] = initialTransition(machine, { input: undefined });
    const max = glanceLoop(snapshot).maxRetries;
    return max === undefined ? {} : { maxRetries: max };
  } catch {
    return {};
  }
}
