import { amount } from '../../health/healthFormat.js';
import type { WhatIfReport, WhatIfSummary } from '../../whatif/WhatIfReport.js';
import { changeText } from '../../whatif/whatIfLines.js';
import { escapeHtml } from '../escapeHtml.js';
import { costDistribution, statusBars } from './whatIfCharts.js';

const LEGEND =
  '<p class="legend"><span class="legend-swatch recorded"></span>recorded<span class="legend-swatch candidate"></span>candidate (exact runs)<span class="legend-swatch unknown"></span>unknown beyond a recorded step</p>';

/**
 * The what-if section of the health page: per candidate, the status bars before and after, the
 * cost distribution, and the numbers (successes kept, lost and gained; cost saved; why runs are unknown).
 * @example renderHealthPage(health, { source: 'runs.db', whatIf: await whatIf(store, { config }) });
 */
export function whatIfSection(report: WhatIfReport): string {
  return `<section class="loop-health what-if" data-panel="what-if">
<h2>What if${report.loop ? ` — ${escapeHtml(report.loop)}` : ''}</h2>
<div class="summary">${report.scanned} stored runs re-decided under each candidate without calling a step${report.skipped ? `; ${report.skipped} unreadable skipped` : ''}</div>
${report.candidates.map(candidate).join('\n')}
</section>`;
}

function candidate(summary: WhatIfSummary): string {
  const { successes, cost } = summary;
  const lostClass = successes.lost > 0 ? 'bad' : 'ok';
  const verdict = `<div class="banner ${lostClass} verdict-line"><strong>${escapeHtml(changeText(summary))}</strong>: ${successes.kept} successes kept, ${successes.lost} lost, ${successes.gained} gained; cost ${amount(cost.recorded)} → ${amount(cost.counterfactual)} over ${summary.exact} exact runs; ${summary.unknown} unknown</div>`;
  const reasons = summary.unknownReasons
    .slice(0, 5)
    .map((r) => `<li>${r.runs} × ${escapeHtml(r.reason)}</li>`)
    .join('');
  return `${verdict}
<div class="panels">
<div class="panel" data-panel="what-if-status"><h3>Status before and after</h3>${LEGEND}${statusBars(summary)}</div>
<div class="panel" data-panel="what-if-cost"><h3>Cost per run, before and after</h3>${LEGEND}${costDistribution(summary)}${reasons ? `<h3>Why runs are unknown</h3><ol class="fingerprints">${reasons}</ol>` : ''}</div>
</div>`;
}
