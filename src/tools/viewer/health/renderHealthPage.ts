import { createHash } from 'node:crypto';
import type { HealthReport, LoopHealth } from '../../health/HealthReport.js';
import { amount, percentOf } from '../../health/healthFormat.js';
import type { WhatIfReport } from '../../whatif/WhatIfReport.js';
import { escapeHtml } from '../escapeHtml.js';
import { PAGE_STYLES } from '../page/pageStyles.js';
import { iterationsHistogram, outcomeBars, verdictMix } from './healthCharts.js';
import { WHAT_IF_STYLES } from './whatIfCharts.js';
import { whatIfSection } from './whatIfPanel.js';

const HEALTH_STYLES = `
.health { padding: 12px 16px; max-width: 1560px; }
.health nav a, .health-link { font-size: 13px; color: var(--accent); }
.health .window { font-size: 13px; color: var(--muted); margin: 4px 0 12px; }
.loop-health { margin: 0 0 28px; }
.loop-health > h2 { font-size: 18px; margin: 0 0 2px; }
.loop-health .summary { font-size: 13px; color: var(--muted); }
.flag { margin: 8px 0; }
.flag strong { font-size: 14px; }
.flag p { margin: 4px 0 0; font-size: 13px; }
.loop-health .panels { grid-template-columns: repeat(auto-fill, minmax(min(520px, 100%), 1fr)); }
.loop-health .panel { overflow-x: auto; }
.facts dd { min-width: 0; overflow-wrap: anywhere; }
@media (max-width: 700px) { .health { padding: 10px 6px; } }
.health-chart { display: block; font: 12px ui-monospace, monospace; }
.health-chart text { fill: var(--ink); }
.health-chart .tick, .health-chart .axis-label { fill: var(--muted); }
.health-chart .axis { stroke: #8c959f; }
.outcome.ok rect { fill: var(--ok); }
.outcome.stop rect { fill: var(--bad); }
.outcome.zero .label, .outcome.zero .count { fill: #8c959f; }
.bin rect { fill: var(--accent); }
.bin.at-cap rect { fill: var(--cap); }
.cap-mark line { stroke: var(--cap); stroke-width: 2; stroke-dasharray: 5 3; }
.cap-mark .cap-label { fill: var(--cap); font-weight: 600; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; font-size: 13px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.fingerprints { font: 12px ui-monospace, monospace; margin: 4px 0 0; padding-left: 18px; }
.empty-state { font-size: 14px; }
`;

const STYLES = PAGE_STYLES + HEALTH_STYLES + WHAT_IF_STYLES;
const CSP = [
  "default-src 'none'",
  "script-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLES).digest('base64')}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The health page: per loop, its red flags, outcome bars, the iterations histogram with the cap
 * marked, the verdict mix over time and the other numbers; with `whatIf`, the comparison with a
 * candidate config first. One self-contained page, no script.
 * @example writeFileSync('health.html', renderHealthPage(await loopHealth(store), { source: 'runs.db' }));
 */
export function renderHealthPage(
  report: HealthReport,
  {
    source,
    runsLink = false,
    whatIf,
  }: { source: string; runsLink?: boolean; whatIf?: WhatIfReport | undefined },
): string {
  const loops = report.loops.map(loopSection).join('\n');
  const empty = `<section class="panel empty-state"><h3>No loop runs</h3><p>${escapeHtml(source)} holds no loop runs${report.loop ? ` of ${escapeHtml(report.loop)}` : ''} in this window. Runs saved with a store (<code>runLoop(config, input, { store, runId })</code>) appear here.</p></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>loopchart health</title>
<style>${STYLES}</style>
</head>
<body>
<header><h1>loopchart health</h1>${runsLink ? '<nav><a href="/">runs</a></nav>' : ''}</header>
<div class="health">
<p class="window">${escapeHtml(windowLine(report, source))}</p>
${whatIf ? whatIfSection(whatIf) : ''}
${loops || empty}
</div>
</body>
</html>
`;
}

function windowLine(report: HealthReport, source: string): string {
  const when = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());
  const since = when(report.window.since);
  const until = when(report.window.until);
  const window =
    since || until ? ` saved ${since ? `from ${since} ` : ''}${until ? `until ${until}` : ''}` : '';
  const skipped = report.skipped.pipeline + report.skipped.unreadable;
  return `${report.scanned} runs in ${source}${window}${skipped ? `; ${report.skipped.pipeline} pipeline records and ${report.skipped.unreadable} unreadable ones skipped` : ''}`;
}

function loopSection(loop: LoopHealth): string {
  const flags = loop.flags.length
    ? loop.flags
        .map(
          (flag) =>
            `<div class="banner bad flag" data-flag="${flag.id}"><strong>⚑ ${escapeHtml(flag.title)}</strong> <span class="muted">${flag.id}</span><p>${escapeHtml(flag.message)}</p></div>`,
        )
        .join('')
    : `<div class="banner ok flag">No red flags <span class="muted">(over ${loop.finished} finished runs)</span></div>`;
  const verdictPanel =
    loop.verdicts.series.buckets.length > 0
      ? verdictMix(loop)
      : `<p class="muted">No verdicts recorded${loop.verdicts.untracedRuns ? `: ${loop.verdicts.untracedRuns} runs were stored with the trace off` : ' yet'}.</p>`;
  const unfinished = loop.unfinished.running + loop.unfinished.paused;
  return `<section class="loop-health" data-loop="${escapeHtml(loop.loop)}">
<h2>${escapeHtml(loop.loop)}</h2>
<div class="summary">${loop.runs} runs, ${loop.finished} finished${unfinished ? `, ${loop.unfinished.running} running, ${loop.unfinished.paused} paused` : ''}</div>
${flags}
<div class="panels">
<div class="panel" data-panel="outcomes"><h3>Outcomes</h3>${outcomeBars(loop)}</div>
<div class="panel" data-panel="iterations"><h3>Refine cycles per run</h3>${iterationsHistogram(loop)}</div>
<div class="panel" data-panel="verdicts"><h3>Verdict mix over time</h3>${verdictPanel}</div>
<div class="panel" data-panel="numbers"><h3>Numbers</h3>${facts(loop)}</div>
</div>
</section>`;
}

function facts(loop: LoopHealth): string {
  const { finished, iterations, verdicts, stalls, cost, failures, intermittent } = loop;
  const failed = Object.entries(failures)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`);
  const rows: [string, string][] = [
    [
      'fallback rate',
      `${percentOf(loop.outcomes.fallback, finished)} (${loop.outcomes.fallback} runs)`,
    ],
    [
      'at the cap',
      `${iterations.atCap} runs (${percentOf(iterations.atCap, finished)}); mean ${amount(iterations.mean)} cycles`,
    ],
    [
      'correctable',
      `${percentOf(verdicts.counts.correctable, verdicts.invalid)} of ${verdicts.invalid} invalid verdicts`,
    ],
    [
      'fundamental',
      `${percentOf(verdicts.counts.fundamental, verdicts.invalid)}; no diagnostic ${verdicts.counts.no_diagnostic}, malformed ${verdicts.counts.malformed}`,
    ],
    ['stalled', `${stalls.runs} runs (${percentOf(stalls.runs, finished)})`],
    [
      'cost per run',
      `${amount(cost.mean)} (at most ${amount(cost.max)}, ${amount(cost.total)} in all)`,
    ],
    ['failures', failed.join(', ') || 'none'],
    [
      'intermittent',
      `${intermittent.successes} successes after a transient retry (${intermittent.runs} runs)`,
    ],
  ];
  const list = stalls.fingerprints
    .slice(0, 5)
    .map(
      (f) =>
        `<li>${escapeHtml(f.fingerprint)}: ${f.runs} runs, at cycle ${f.atIteration.flatMap((n, i) => (n > 0 ? [i] : [])).join(', ')}</li>`,
    )
    .join('');
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>${list ? `<h3>Stalled on</h3><ol class="fingerprints">${list}</ol>` : ''}`;
}
