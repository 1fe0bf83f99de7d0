import type { InspectionEvent } from 'xstate';
import { type LoopView, loopView } from '../../../core/chart/loopView.js';
import type { TraceEntry } from '../../../core/vocabulary/trace.js';
import type { Verdict } from '../../../core/vocabulary/validation.js';
import type { CliOutput } from '../cliOutput.js';
import { formatMs, oneLine } from '../format.js';

/**
 * An XState `inspect` observer that prints one line per new trace entry of the root loop actor:
 * the state, the attempt, the decision (or the verdict), the key and the duration.
 * @example await runLoop(config, input, { inspect: progressPrinter(output) });
 */
export function progressPrinter(output: CliOutput): (event: InspectionEvent) => void {
  let printed = 0;
  return (event) => {
    if (event.type !== '@xstate.snapshot' || event.actorRef.sessionId !== event.rootId) return;
    const view = loopView(event.snapshot);
    if (!view) return;
    for (const entry of view.trace.slice(printed)) {
      output.out(progressLine(entry, view, output.c));
    }
    printed = Math.max(printed, view.trace.length);
  };
}

export function progressLine(
  entry: TraceEntry,
  view: Pick<LoopView, 'verdict' | 'settings'>,
  c: CliOutput['c'],
): string {
  const seq = c.dim(String(entry.seq).padStart(3, '0'));
  const state = entry.state.padEnd(14);
  const attempt = `attempt ${entry.attempt}`.padEnd(10);
  const key = entry.key ? c.dim(`key ${entry.key.slice(0, 8)}`) : ''.padEnd(12);
  const time = c.dim((entry.decision ? '' : formatMs(entry.durationMs)).padStart(7));
  return `  ${seq}  ${state} ${attempt} ${key} ${time}  ${describeEntry(entry, view, c)}`.trimEnd();
}

function describeEntry(
  entry: TraceEntry,
  view: Pick<LoopView, 'verdict' | 'settings'>,
  c: CliOutput['c'],
): string {
  if (entry.decision) {
    const cap =
      entry.decision === 'refine' ? ` (${entry.retryCount}/${view.settings.maxRetries})` : '';
    return c.bold(c.cyan(`→ ${entry.decision}${cap}`));
  }
  if (entry.failureKind)
    return c.yellow(`${entry.failureKind} failure: ${oneLine(entry.rationale ?? '', 60)}`);
  if (entry.state === 'validating' && view.verdict) return verdictText(view.verdict, c);
  if (entry.intermittent) return c.yellow('ok after a transient retry (intermittent)');
  return '';
}

function verdictText(verdict: Verdict, c: CliOutput['c']): string {
  if (verdict.valid) return c.green('valid');
  if ('malformed' in verdict) return c.red(`malformed: ${oneLine(verdict.malformed, 50)}`);
  if (!verdict.error) return c.red('invalid, no diagnostic');
  const text = `${verdict.error.severity}: ${oneLine(verdict.error.message, 56)}`;
  return verdict.error.severity === 'fundamental' ? c.red(text) : c.yellow(text);
}
