// The health page's plots as SVG text, drawn on the server: the page runs no script. Every text
// taken from runs (loop ids, fingerprints) goes through `escapeHtml`.

import { isOkStatus, LOOP_STATUSES } from '../../../core/vocabulary/statuses.js';
import type { LoopHealth } from '../../health/HealthReport.js';
import { VERDICT_CLASSES } from '../../health/storedRunFacts.js';
import { escapeHtml } from '../escapeHtml.js';

export const VERDICT_COLORS = {
  valid: '#2b8a3e',
  correctable: '#e67700',
  fundamental: '#c92a2a',
  no_diagnostic: '#7048e8',
  malformed: '#495057',
} as const;

const svg = (width: number, height: number, label: string, body: string) =>
  `<svg class="health-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
const text = (x: number, y: number, content: string | number, attrs = '') =>
  `<text x="${x}" y="${y}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(String(content))}</text>`;

/** Horizontal bars, one per terminal status (all 13), ok statuses green and stops red. */
export function outcomeBars(loop: LoopHealth): string {
  const row = 20;
  const labelWidth = 178;
  const barWidth = 230;
  const most = Math.max(1, ...Object.values(loop.outcomes));
  const rows = LOOP_STATUSES.map((status, i) => {
    const n = loop.outcomes[status];
    const y = 6 + i * row;
    const width = n === 0 ? 0 : Math.max(2, (n / most) * barWidth);
    const share = loop.finished === 0 ? 0 : Math.round((n / loop.finished) * 100);
    return `<g class="outcome ${isOkStatus(status) ? 'ok' : 'stop'}${n === 0 ? ' zero' : ''}" data-status="${status}">
${text(labelWidth - 8, y + 13, status, 'text-anchor="end" class="label"')}
<rect x="${labelWidth}" y="${y + 2}" width="${width.toFixed(1)}" height="${row - 6}" rx="2"/>
${text(labelWidth + width + 6, y + 13, n === 0 ? '0' : `${n} (${share}%)`, 'class="count"')}</g>`;
  });
  return svg(
    labelWidth + barWidth + 80,
    12 + LOOP_STATUSES.length * row,
    'outcomes',
    rows.join(''),
  );
}

/** Runs per refine-cycle count, with the loop's `maxRetries` cap marked in crimson. */
export function iterationsHistogram(loop: LoopHealth): string {
  const { histogram, maxRetries } = loop.iterations;
  const width = 480;
  const height = 236;
  const left = 40;
  const top = 46;
  const plotHeight = 140;
  const band = (width - left - 10) / histogram.length;
  const most = Math.max(1, ...histogram);
  const every = Math.ceil(histogram.length / 16);
  const bars = histogram.map((n, i) => {
    const h = (n / most) * plotHeight;
    const x = left + i * band;
    const atCap = i >= maxRetries;
    return `<g class="bin${atCap ? ' at-cap' : ''}" data-iterations="${i}">
<rect x="${(x + band * 0.12).toFixed(1)}" y="${(top + plotHeight - h).toFixed(1)}" width="${(band * 0.76).toFixed(1)}" height="${h.toFixed(1)}" rx="2"/>
${n > 0 ? text(x + band / 2, top + plotHeight - h - 4, n, 'text-anchor="middle" class="count"') : ''}
${i % every === 0 || i === maxRetries ? text(x + band / 2, top + plotHeight + 16, i, 'text-anchor="middle" class="tick"') : ''}</g>`;
  });
  const capX = left + maxRetries * band;
  const cap = `<g class="cap-mark" data-cap="${maxRetries}">
<line x1="${capX.toFixed(1)}" y1="${top - 24}" x2="${capX.toFixed(1)}" y2="${top + plotHeight + 4}"/>
${text(capX + (maxRetries > histogram.length / 2 ? -6 : 6), 16, `cap: maxRetries = ${maxRetries}`, `text-anchor="${maxRetries > histogram.length / 2 ? 'end' : 'start'}" class="cap-label"`)}</g>`;
  const axis = `<line class="axis" x1="${left}" y1="${top + plotHeight}" x2="${width - 10}" y2="${top + plotHeight}"/>
${text(left + (width - left) / 2, height - 8, 'refine cycles per run', 'text-anchor="middle" class="axis-label"')}
${text(12, top + plotHeight / 2, 'runs', `text-anchor="middle" class="axis-label" transform="rotate(-90 12 ${top + plotHeight / 2})"`)}`;
  return svg(width, height, 'refine cycles per run', bars.join('') + cap + axis);
}

/** The verdict mix per time bucket, as 100 % stacked bars, with a legend of the totals. */
export function verdictMix(loop: LoopHealth): string {
  const { buckets, widthMs } = loop.verdicts.series;
  const width = 480;
  const left = 40;
  const top = 10;
  const plotHeight = 140;
  const band = (width - left - 10) / Math.max(1, buckets.length);
  const bars = buckets.map((bucket, i) => {
    const total = VERDICT_CLASSES.reduce((n, v) => n + bucket.counts[v], 0);
    let y = top + plotHeight;
    const parts = VERDICT_CLASSES.filter((v) => bucket.counts[v] > 0).map((verdict) => {
      const h = (bucket.counts[verdict] / total) * plotHeight;
      y -= h;
      return `<rect class="verdict-${verdict}" x="${(left + i * band + band * 0.1).toFixed(1)}" y="${y.toFixed(1)}" width="${(band * 0.8).toFixed(1)}" height="${h.toFixed(1)}" fill="${VERDICT_COLORS[verdict]}"><title>${escapeHtml(`${new Date(bucket.start).toISOString()}: ${bucket.counts[verdict]} ${verdict}`)}</title></rect>`;
    });
    return `<g class="bucket" data-start="${bucket.start}">${parts.join('')}</g>`;
  });
  const first = buckets[0];
  const last = buckets.at(-1);
  const axis = `<line class="axis" x1="${left}" y1="${top + plotHeight}" x2="${width - 10}" y2="${top + plotHeight}"/>
${text(left, top + plotHeight + 16, first ? stamp(first.start) : '', 'class="tick"')}
${text(width - 10, top + plotHeight + 16, last ? stamp(last.start + widthMs) : '', 'text-anchor="end" class="tick"')}
${text(left + (width - left) / 2, top + plotHeight + 34, `share of verdicts, one bar per ${span(widthMs)}`, 'text-anchor="middle" class="axis-label"')}
${text(left - 6, top + 10, '100%', 'text-anchor="end" class="tick"')}
${text(left - 6, top + plotHeight, '0', 'text-anchor="end" class="tick"')}`;
  const legend = VERDICT_CLASSES.map((verdict, i) => {
    const x = left + (i % 3) * 146;
    const y = top + plotHeight + 54 + Math.floor(i / 3) * 20;
    return `<g class="legend" data-verdict="${verdict}"><rect x="${x}" y="${y - 10}" width="12" height="12" fill="${VERDICT_COLORS[verdict]}"/>${text(x + 18, y, `${verdict.replace('_', ' ')} ${loop.verdicts.counts[verdict]}`)}</g>`;
  });
  return svg(
    width,
    top + plotHeight + 90,
    'verdict mix over time',
    bars.join('') + axis + legend.join(''),
  );
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

function span(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  if (ms < 86_400_000) return `${ms / 3_600_000} h`;
  return `${ms / 86_400_000} d`;
}
