// The what-if comparison as SVG text, drawn on the server like the health page's other plots.

import { isOkStatus, LOOP_STATUSES } from '../../../core/vocabulary/statuses.js';
import type { WhatIfSummary } from '../../whatif/WhatIfReport.js';
import { escapeHtml } from '../escapeHtml.js';

const svg = (width: number, height: number, label: string, body: string) =>
  `<svg class="health-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
const text = (x: number, y: number, content: string | number, attrs = '') =>
  `<text x="${x}" y="${y}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(String(content))}</text>`;

/** What-if styles, appended to the health page's (its CSP hashes the whole sheet). */
export const WHAT_IF_STYLES = `
.what-if .recorded rect, .legend-swatch.recorded { fill: #adb5bd; background: #adb5bd; }
.what-if .candidate.ok rect { fill: var(--ok); }
.what-if .candidate.stop rect { fill: var(--bad); }
.what-if .candidate.unknown rect, .legend-swatch.unknown { fill: #f2c94c; background: #f2c94c; }
.what-if .cost-bar.candidate rect, .legend-swatch.candidate { fill: var(--accent); background: var(--accent); }
.what-if .legend { font-size: 12px; color: var(--muted); margin: 0 0 6px; }
.legend-swatch { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 10px; border-radius: 2px; }
.what-if .verdict-line { font-size: 14px; margin: 4px 0 10px; }
`;

/**
 * Side-by-side bars per status: the recorded runs (grey) and the candidate's exact runs (green for
 * an ok status, red for a stop), with the runs whose outcome is unknown in amber on their own row.
 */
export function statusBars(summary: WhatIfSummary): string {
  const statuses = LOOP_STATUSES.filter(
    (s) => (summary.recorded[s] ?? 0) > 0 || (summary.counterfactual[s] ?? 0) > 0,
  );
  const unfinished = (['running', 'paused'] as const).filter((s) => (summary.recorded[s] ?? 0) > 0);
  const rows: { label: string; recorded: number; candidate: number; kind: string }[] = [
    ...statuses.map((s) => ({
      label: s,
      recorded: summary.recorded[s] ?? 0,
      candidate: summary.counterfactual[s] ?? 0,
      kind: isOkStatus(s) ? 'ok' : 'stop',
    })),
    ...unfinished.map((s) => ({
      label: s,
      recorded: summary.recorded[s] ?? 0,
      candidate: 0,
      kind: 'stop',
    })),
    ...(summary.unknown > 0
      ? [{ label: 'unknown', recorded: 0, candidate: summary.unknown, kind: 'unknown' }]
      : []),
  ];
  const row = 34;
  const labelWidth = 178;
  const barWidth = 230;
  const most = Math.max(1, ...rows.flatMap((r) => [r.recorded, r.candidate]));
  const bar = (y: number, n: number, cls: string, status: string) => {
    const width = n === 0 ? 0 : Math.max(2, (n / most) * barWidth);
    return `<g class="${cls}" data-status="${escapeHtml(status)}"><rect x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="12" rx="2"/>${text(labelWidth + width + 6, y + 10, n)}</g>`;
  };
  const body = rows.map((r, i) => {
    const y = 6 + i * row;
    return `${text(labelWidth - 8, y + 18, r.label, 'text-anchor="end" class="label"')}${bar(y + 2, r.recorded, 'recorded', r.label)}${bar(y + 16, r.candidate, `candidate ${r.kind}`, r.label)}`;
  });
  return svg(
    labelWidth + barWidth + 60,
    12 + rows.length * row,
    'status before and after',
    body.join(''),
  );
}

/** Exact runs per cost bucket (1-2-5 series), recorded (grey) beside the candidate (blue). */
export function costDistribution(summary: WhatIfSummary): string {
  const { edges, recorded, counterfactual } = summary.costBuckets;
  const width = 480;
  const height = 220;
  const left = 40;
  const top = 16;
  const plotHeight = 150;
  if (edges.length === 0) return '<p class="muted">No exact runs to compare.</p>';
  const band = (width - left - 10) / edges.length;
  const most = Math.max(1, ...recorded, ...counterfactual);
  const bars = edges.map((edge, i) => {
    const x = left + i * band;
    const one = (n: number, offset: number, cls: string) => {
      const h = (n / most) * plotHeight;
      return `<g class="cost-bar ${cls}"><rect x="${(x + offset).toFixed(1)}" y="${(top + plotHeight - h).toFixed(1)}" width="${(band * 0.4).toFixed(1)}" height="${h.toFixed(1)}"/></g>`;
    };
    return `${one(recorded[i] ?? 0, band * 0.08, 'recorded')}${one(counterfactual[i] ?? 0, band * 0.5, 'candidate')}${text(x + band / 2, top + plotHeight + 16, `≤${edge}`, 'text-anchor="middle" class="tick"')}`;
  });
  const axis = `<line class="axis" x1="${left}" y1="${top + plotHeight}" x2="${width - 10}" y2="${top + plotHeight}"/>${text(left - 6, top + 10, most, 'text-anchor="end" class="tick"')}${text(width / 2, height - 4, 'cost per run (exact runs)', 'text-anchor="middle" class="axis-label"')}`;
  return svg(width, height, 'cost distribution before and after', axis + bars.join(''));
}
