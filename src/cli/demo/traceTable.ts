import type { TraceEntry } from '../../trace.js';
import type { Colors } from '../cliOutput.js';
import { formatMs, oneLine } from '../format.js';

const COLUMNS = ['#', 'state', 'attempt', 'retry', 'decision', 'key', 'time', 'note'] as const;

/**
 * The trace as an aligned text table, one row per entry.
 * @example for (const line of traceTable(outcome.trace, colors)) console.log(line);
 */
export function traceTable(trace: readonly TraceEntry[], c: Colors): string[] {
  const rows = trace.map((entry) => [
    String(entry.seq),
    entry.state,
    String(entry.attempt),
    String(entry.retryCount),
    entry.decision ?? '',
    entry.key?.slice(0, 8) ?? '',
    entry.decision ? '' : formatMs(entry.durationMs),
    oneLine(noteOf(entry), 64),
  ]);
  const widths = COLUMNS.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [
    c.dim(line(COLUMNS)),
    ...rows.map((row) => {
      const text = line(row);
      return row[4] ? c.cyan(text) : text;
    }),
  ];
}

function noteOf(entry: TraceEntry): string {
  if (entry.failureKind) return `${entry.failureKind}: ${entry.rationale ?? ''}`;
  if (entry.intermittent) return 'intermittent: succeeded after a transient retry';
  return entry.rationale ?? '';
}
