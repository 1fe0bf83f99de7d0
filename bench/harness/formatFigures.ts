import type { BenchFigures } from './BenchSection.js';

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Formats a number for a table: three significant digits, thousands kept whole. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) || Math.abs(value) >= 100)
    return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3);
}

const cell = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/**
 * A plain-text table of rows (columns in first-seen order, numbers right-aligned).
 * @example formatTable([{ impl: 'loopchart', us: 41.2 }]) // 'impl       us\n---------  ----\nloopchart  41.2'
 */
export function formatTable(rows: readonly Row[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...cells.map((line) => (line[i] ?? '').length)),
  );
  const numeric = columns.map((column) => rows.every((row) => typeof row[column] !== 'string'));
  const pad = (text: string, i: number) =>
    numeric[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  const line = (texts: string[]) => texts.map(pad).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Prints a section's figures: row arrays as tables, everything else as `key: value` lines. */
export function formatFigures(figures: BenchFigures): string {
  const blocks: string[] = [];
  for (const [key, value] of Object.entries(figures)) {
    if (Array.isArray(value) && value.length > 0 && value.every(isRow)) {
      blocks.push(`${key}:\n${formatTable(value)}`);
    } else {
      blocks.push(`${key}: ${cell(value)}`);
    }
  }
  return blocks.join('\n\n');
}
