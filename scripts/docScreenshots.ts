// The screenshots of the viewer in docs/: what each shows, how it is taken, and the fingerprint
// of the page it was taken from. `npm run screenshots` writes them; test/browser/doc-screenshots
// takes them again into a temporary folder and compares the fingerprints.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createLoopMachine,
  type LoopConfig,
  MemoryCheckpointStore,
  runLoopMachine,
  transientFailure,
} from 'loopchart';
import { loopHealth, whatIf } from 'loopchart/health';
import { renderRunReport } from 'loopchart/viewer';
import type { Page } from 'playwright-core';
import { HEALTH_FIXTURES, runScripted } from '../bench/loops/healthRuns.js';
import { renderHealthPage } from '../src/tools/viewer/health/renderHealthPage.js';

/** One screenshot of docs/: the report it shows, at which window size. */
export interface DocScreenshot {
  /** The file in docs/. */
  file: string;
  report: keyof DocReports;
  viewport: { width: number; height: number };
  /** Only this panel of the report (its `data-testid` without `panel-`). */
  panel?: string;
}

export const DOC_SCREENSHOTS: readonly DocScreenshot[] = [
  { file: 'viewer-report.png', report: 'detour', viewport: { width: 1280, height: 900 } },
  { file: 'viewer-report-phone.png', report: 'detour', viewport: { width: 390, height: 844 } },
  { file: 'health-what-if.png', report: 'whatIf', viewport: { width: 1280, height: 900 } },
  {
    file: 'viewer-report-what-if.png',
    report: 'detourWhatIf',
    viewport: { width: 1280, height: 900 },
    panel: 'what-if',
  },
];

/** The reports the screenshots show, by name: their HTML files. */
export interface DocReports {
  /** A rate limit, a refine, then the fallback. */
  detour: string;
  /** The same run's report with a What if panel: three candidates re-decide it. */
  detourWhatIf: string;
  /** The health page of scripted invoice runs with two candidates compared on top. */
  whatIf: string;
}

/**
 * A headline loop whose first attempt hits a rate limit (the transient-retry detour), whose next
 * two drafts are rejected as too long (one refine, then the cap) and whose fallback answers.
 */
const headline: LoopConfig<string, string> = {
  id: 'headline',
  maxRetries: 1,
  retryDelayMs: 10,
  attempt: ({ attempt }) => {
    if (attempt === 1) throw transientFailure('429 Too Many Requests', { effect: 'none' });
    return attempt === 2
      ? 'Regional hospital network reports record quarter for outpatient surgery volumes'
      : 'Hospitals report record outpatient quarter across the whole regional network';
  },
  validate: (draft) =>
    draft.length <= 60
      ? { valid: true }
      : { valid: false, error: { severity: 'correctable', message: `${draft.length} > 60 chars` } },
  refine: ({ input, error }) => `${input} (${error.message})`,
  fallback: () => 'Record outpatient quarter',
};

/** Writes the reports the screenshots show into `dir`. */
export async function writeDocReports(dir: string): Promise<DocReports> {
  const machine = createLoopMachine(headline);
  const outcome = await runLoopMachine(machine, 'Q3 outpatient figures');
  const title = 'Headline: a rate limit, a refine, then the fallback';
  const detour = join(dir, 'detour.html');
  await writeFile(detour, await renderRunReport({ machine, outcome, title }), 'utf8');
  const detourWhatIf = join(dir, 'detour-what-if.html');
  const candidates = [{ maxRetries: 0, fallback: false }, { maxRetries: 0 }, { maxRetries: 2 }];
  const report = await renderRunReport({ machine, outcome, title, whatIf: candidates });
  await writeFile(detourWhatIf, report, 'utf8');
  return { detour, detourWhatIf, whatIf: await writeWhatIfPage(dir) };
}

async function writeWhatIfPage(dir: string): Promise<string> {
  const store = new MemoryCheckpointStore();
  await runScripted(store, 'invoice', [
    ...HEALTH_FIXTURES.healthy,
    ...HEALTH_FIXTURES.exhausted_then_fallback,
  ]);
  const scope = { loop: 'invoice' };
  const page = renderHealthPage(await loopHealth(store, scope), {
    source: 'runs.db',
    whatIf: await whatIf(store, {
      ...scope,
      candidates: [{ maxRetries: 1, fallback: false }, { maxRetries: 1 }],
    }),
  });
  const file = join(dir, 'what-if.html');
  await writeFile(file, page, 'utf8');
  return file;
}

/**
 * Opens the report in `page` at the screenshot's size, waits until its chart is framed on the
 * run's path, saves the screenshot to `png` and resolves to the page's fingerprint.
 */
export async function takeDocScreenshot(
  page: Page,
  reports: DocReports,
  shot: DocScreenshot,
  png: string,
): Promise<string> {
  await page.setViewportSize(shot.viewport);
  await page.goto(pathToFileURL(reports[shot.report]).href);
  if (shot.panel !== undefined) {
    const panel = page.locator(`[data-testid=panel-${shot.panel}]`);
    await page.locator('svg.chart[data-framed]').waitFor({ timeout: 120_000 });
    await panel.waitFor({ state: 'attached', timeout: 120_000 });
    await panel.screenshot({ path: png });
    return `${shot.file} at ${shot.viewport.width}×${shot.viewport.height}\n${await panel.textContent()}`;
  }
  if (shot.report === 'whatIf') {
    // the what-if section of the health page, from the top of the page
    const end = await page.locator('[data-panel=what-if]').evaluate((section) => {
      return Math.ceil(section.getBoundingClientRect().bottom + window.scrollY + 8);
    });
    const clip = { x: 0, y: 0, width: shot.viewport.width, height: end };
    await page.screenshot({ path: png, fullPage: true, clip });
    return `${shot.file} at ${shot.viewport.width}×${shot.viewport.height}\n${await fingerprint(page)}`;
  }
  await page.locator('svg.chart[data-framed]').waitFor();
  // The top of the page down to the chart's legend: the whole chart as the page opens it.
  const bottom = await page.locator('.chart-view').evaluate((view) => {
    return Math.ceil(view.getBoundingClientRect().bottom + window.scrollY + 8);
  });
  await page.screenshot({
    path: png,
    fullPage: true,
    clip: { x: 0, y: 0, width: shot.viewport.width, height: bottom },
  });
  return `${shot.file} at ${shot.viewport.width}×${shot.viewport.height}\n${await fingerprint(page)}`;
}

/**
 * What a screenshot was taken from, as text that does not depend on the machine: the title, the
 * banner, every state box, edge route and label of the chart (classes, text and the layout's
 * coordinates), the legend and the panels' headings. Not the pixels, not the zoom (the page's own
 * text, and so the chart's top, may measure differently elsewhere).
 */
export function fingerprint(page: Page): Promise<string> {
  return page.evaluate(() => {
    const lines: string[] = [`title ${document.title}`];
    const text = (element: Element | null) => (element?.textContent ?? '').replace(/\s+/g, ' ');
    lines.push(`banner ${text(document.querySelector('[data-testid=status-banner]'))}`);
    const round = (value: string | null) =>
      (value ?? '').replace(/-?\d+\.\d+/g, (n) => String(Math.round(Number(n))));
    const svg = document.querySelector('svg.chart');
    for (const node of svg?.querySelectorAll('.node') ?? []) {
      const box = node.querySelector('rect, circle');
      const at = ['x', 'y', 'width', 'height', 'cx', 'cy'].map((a) => box?.getAttribute(a) ?? '');
      lines.push(
        `state ${node.getAttribute('data-state')} ${node.getAttribute('class')} ${round(at.join(' '))}`,
      );
    }
    for (const edge of svg?.querySelectorAll('path.edge') ?? []) {
      lines.push(
        `edge ${edge.getAttribute('data-edge')} ${edge.getAttribute('class')} ${round(edge.getAttribute('d'))}`,
      );
    }
    for (const label of svg?.querySelectorAll('g.edge-label') ?? []) {
      const box = label.querySelector('rect');
      const at = ['x', 'y', 'width', 'height'].map((a) => box?.getAttribute(a) ?? '');
      lines.push(
        `label ${label.getAttribute('data-edge')} ${label.getAttribute('class')} "${text(label)}" ${round(at.join(' '))}`,
      );
    }
    lines.push(`badge ${text(document.querySelector('[data-testid=loop-badge]'))}`);
    for (const item of document.querySelectorAll('[data-testid=legend] li')) {
      lines.push(`legend ${text(item)}`);
    }
    for (const heading of document.querySelectorAll('.panel > h3')) {
      lines.push(`panel ${text(heading)}`);
    }
    return lines.join('\n');
  });
}
