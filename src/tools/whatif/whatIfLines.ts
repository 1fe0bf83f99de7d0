import type { WhatIfReport, WhatIfSummary } from './WhatIfReport.js';

/** One block of the text report: a title and its lines. */
export interface WhatIfBlock {
  title: string;
  lines: string[];
}

const pct = (part: number, whole: number) =>
  whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`;
const num = (value: number) => Number(value.toFixed(2)).toString();
const signed = (value: number) => (value > 0 ? `+${num(value)}` : num(value));

/** The knobs a candidate changes, as `maxRetries=1 stall=off`. */
export function changeText(summary: Pick<WhatIfSummary, 'change'>): string {
  const parts = Object.entries(summary.change).map(([knob, value]) => {
    if (value === null) return `${knob}=none`;
    if (value === false && knob === 'stall') return 'stall=off';
    if (typeof value === 'object') return `${knob}=${JSON.stringify(value)}`;
    return `${knob}=${value}`;
  });
  return parts.length > 0 ? parts.join(' ') : 'the recorded config';
}

/**
 * The what-if report as text blocks, one per candidate (a sweep adds a trade-off table first).
 * @example for (const block of whatIfLines(report)) console.log(block.title, block.lines.join('\n'));
 */
export function whatIfLines(report: WhatIfReport): WhatIfBlock[] {
  const blocks: WhatIfBlock[] = [];
  if (report.sweep !== undefined && report.candidates.length > 1) {
    blocks.push({
      title: `sweep of ${report.sweep}: successes kept vs cost (exact runs; unknown apart)`,
      lines: report.candidates.map(
        (c) =>
          `${changeText(c).padEnd(24)} ok ${String(c.successes.kept + c.successes.gained).padStart(6)}  lost ${String(c.successes.lost).padStart(5)}  gained ${String(c.successes.gained).padStart(5)}  cost ${num(c.cost.counterfactual).padStart(10)}  unknown ${c.unknown}`,
      ),
    });
  }
  for (const c of report.candidates) {
    const statuses = [...new Set([...Object.keys(c.recorded), ...Object.keys(c.counterfactual)])];
    const lines = [
      `runs         ${c.runs}: ${c.exact} exact, ${c.unknown} unknown beyond a recorded step`,
      `successes    ${c.successes.recorded} recorded; of the exact runs ${c.successes.kept} kept, ${c.successes.lost} lost, ${c.successes.gained} gained`,
      `cost         ${num(c.cost.recorded)} → ${num(c.cost.counterfactual)} over exact runs (${signed(-c.cost.saved)})`,
      `time         ${num(c.timeMs.recorded / 1000)} s → ${num(c.timeMs.counterfactual / 1000)} s over exact runs`,
      ...statuses.map(
        (status) =>
          `  ${status.padEnd(23)} ${String(c.recorded[status as keyof typeof c.recorded] ?? 0).padStart(6)} → ${String(c.counterfactual[status as keyof typeof c.counterfactual] ?? 0).padStart(6)}  (${pct(c.counterfactual[status as keyof typeof c.counterfactual] ?? 0, c.runs)})`,
      ),
      ...(c.unknown > 0
        ? [`  unknown                 ${''.padStart(6)} → ${String(c.unknown).padStart(6)}`]
        : []),
      ...c.unknownReasons.slice(0, 3).map((r) => `unknown: ${r.runs} × ${r.reason}`),
    ];
    blocks.push({ title: `what if ${changeText(c)}`, lines });
  }
  return blocks;
}
