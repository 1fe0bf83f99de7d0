import { createHash } from 'node:crypto';
import { escapeHtml } from '../escapeHtml.js';
import { h, loopBadge, readable, show } from './clientKit.js';
import { drawChart } from './drawChart.js';
import { drawRun } from './drawRun.js';
import { drawTrace } from './drawTrace.js';
import { PAGE_STYLES } from './pageStyles.js';
import { panZoom } from './panZoom.js';
import { type PageBoot, startPage } from './startPage.js';
import { takenPath } from './takenPath.js';

/** The page's script: the client functions' own source, wired into one kit. */
const SCRIPT = [
  "'use strict';",
  '(() => {',
  `const kit = { h: ${h}, show: ${show}, readable: ${readable}, loopBadge: ${loopBadge}, takenPath: ${takenPath},`,
  `  drawChart: ${drawChart}, panZoom: ${panZoom}, drawTrace: ${drawTrace}, drawRun: ${drawRun},`,
  '  views: new Map() };',
  `const boot = JSON.parse(document.getElementById('boot').textContent);`,
  `(${startPage})(kit, boot);`,
  '})();',
]
  .join('\n')
  .replace(/<\/(script)/gi, '<\\/$1');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The Content-Security-Policy of every page: only its own inline script and style run. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(PAGE_STYLES)}`,
  "connect-src 'self'",
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * One self-contained HTML page (inline style and script, no network but its own WebSocket):
 * the live viewer, or a static report when `boot` carries the runs and charts.
 */
export function renderPage(boot: PageBoot, title: string): string {
  const data = JSON.stringify(boot)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const single = boot.mode === 'static' && boot.runs.length <= 1;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLES}</style>
</head>
<body>
<header><h1>loopchart</h1><span class="page-kind">${boot.mode === 'live' ? 'run viewer' : 'run report'}</span><nav id="nav">${boot.mode === 'live' ? '<a href="/health">health</a>' : ''}</nav><span id="connection">connecting…</span></header>
<main${single ? ' class="single"' : ''}><aside><h2>Runs</h2><ul id="runs"></ul></aside><section id="run"></section></main>
<script type="application/json" id="boot">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
