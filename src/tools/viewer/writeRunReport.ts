import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type AnyStateMachine, initialTransition } from 'xstate';
import { certifySettings } from '../../core/certificate/certifyLoop.js';
import { isLoopPlan, type LoopPlan, planOf } from '../../core/chart/compileLoop.js';
import { glanceLoop } from '../../core/chart/loopView.js';
import type { AnyLoopConfig } from '../../core/vocabulary/AnyLoopConfig.js';
import type { LoopConfig, LoopSettings } from '../../core/vocabulary/config.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { certificateBadge } from '../analysis/describeCertificate.js';
import { toMachineJson } from '../diagram/toMachineJson.js';
import type { WhatIfChange } from '../whatif/candidateSettings.js';
import { chartPathOf } from './chartPath.js';
import { cycleVerdicts, withCycleVerdicts } from './cycleVerdicts.js';
import { layoutChart } from './layoutChart.js';
import { renderPage } from './page/renderPage.js';
import type { RunView } from './runView.js';
import { runWhatIfLines } from './runWhatIf.js';
import { toJsonSafe } from './toJsonSafe.js';

/**
 * What a run report shows: the outcome, drawn on its chart — the machine it ran on, or the loop
 * config a `runLoop` caller holds (the chart is the one `runLoop` ran).
 */
export type RunReportInput = {
  outcome: LoopOutcome;
  /** Page title and run label. Default: `<machine id>: <status>`. */
  title?: string;
  /** Candidate configs to re-decide the run under, shown in a "What if" panel. */
  whatIf?: readonly WhatIfChange[];
} & (
  | { machine: AnyStateMachine; config?: undefined }
  | { config: AnyLoopConfig | LoopPlan; machine?: undefined }
);

/**
 * Renders a finished run as one self-contained HTML page (inline script and styles, no network):
 * the statechart with the final state, the loop badge, the trace timeline and the `LoopError`.
 * @example const html = await renderRunReport({ config, outcome }); // or { machine, outcome }
 */
export async function renderRunReport(input: RunReportInput): Promise<string> {
  const { outcome, title } = input;
  const machine = input.machine ?? chartOf(input.config);
  const graph = toMachineJson(machine);
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
    ...worstCaseOf(input.config && configOf(input.config), machine),
    candidate: toJsonSafe(lastCandidate(outcome)),
    trace: outcome.trace.map((entry) => toJsonSafe(entry)),
    output: toJsonSafe(outcome),
    startedAt: outcome.trace[0]?.startedAt ?? now,
    updatedAt: now,
    eventCount: 0,
    droppedEvents: 0,
    recentEvents: [],
    ...(input.whatIf ? { whatIf: runWhatIfLines(machine, outcome, input.whatIf) } : {}),
  };
  const layout = withCycleVerdicts(
    await layoutChart(graph, { path: chartPathOf(graph, run) }),
    () => cycleVerdicts(machine),
  );
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

function chartOf(loop: AnyLoopConfig | LoopPlan): AnyStateMachine {
  return planOf(loop as LoopConfig).sharedChart;
}

function configOf(loop: AnyLoopConfig | LoopPlan): AnyLoopConfig {
  return isLoopPlan(loop) ? (loop.config as AnyLoopConfig) : loop;
}

function lastCandidate(outcome: LoopOutcome): unknown {
  if ('candidate' in outcome) return outcome.candidate;
  return 'partial' in outcome ? outcome.partial : undefined;
}

/**
 * The certificate's badge, from the settings in the chart's initial context (and the config's
 * cost estimates when the caller holds it). A chart cannot tell loopchart's stand-in refine from
 * the user's, so refine calls count either way: the same page for a config and its machine.
 */
function worstCaseOf(
  config: AnyLoopConfig | undefined,
  machine: AnyStateMachine,
): { worstCase?: string } {
  try {
    const [snapshot] = initialTransition(machine, { input: undefined });
    const settings = (snapshot.context as { settings?: LoopSettings } | undefined)?.settings;
    if (settings?.maxAttempts === undefined) return {};
    const reserved = (config as LoopConfig | undefined)?.costEstimates;
    const certificate = certifySettings({ id: machine.id, settings, hasRefine: true, reserved });
    return { worstCase: certificateBadge(certificate) };
  } catch {
    return {};
  }
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
