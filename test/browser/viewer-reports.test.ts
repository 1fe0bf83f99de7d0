import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopOutcome } from 'loopchart';
import pc from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../src/tools/cli/demo/runDemo.js';
import { launchChromium } from './support/browser.js';
import {
  clipping,
  labelNeighbours,
  panelContents,
  stateLabelSizes,
} from './support/chartChecks.js';

const HOOK_TIMEOUT = 90_000;
const dir = mkdtempSync(join(tmpdir(), 'loopchart-reports-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let reports: Array<{ name: string; file: string; outcome: LoopOutcome<unknown> }>;

beforeAll(async () => {
  const quiet = { out: () => {}, err: () => {}, c: pc.createColors(false) };
  const [demo, chromium] = await Promise.all([runDemo(quiet, { dir }), launchChromium()]);
  browser = chromium;
  reports = demo.runs.map((run) => ({
    name: run.scenario.name,
    file: run.report,
    outcome: run.outcome,
  }));
}, HOOK_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}, HOOK_TIMEOUT);

/** Opens a report at 1280 px, as a user would, and waits for its chart. */
async function open(file: string) {
  const tab = await browser.page();
  await tab.page.setViewportSize({ width: 1280, height: 900 });
  await tab.page.goto(pathToFileURL(file).href);
  await tab.page.locator('svg.chart[viewBox]').waitFor();
  return tab;
}

const names = [
  'claim-incomplete-report',
  'claim-contradictory-plan',
  'structured-output',
  'headline-stalled',
  'headline-fallback',
];

describe("the demo's five run reports at 1280 px in headless Chromium", () => {
  it('the demo wrote the five reports this suite looks at', () => {
    expect(reports.map((report) => report.name)).toEqual(names);
  });

  it.each(names)('%s: the path taken stands out, each edge taken counted', async (name) => {
    const report = reports.find((r) => r.name === name);
    if (!report) throw new Error(`no report ${name}`);
    const { page, errors } = await open(report.file);
    const taken = await page.locator('svg.chart path.edge.taken').evaluateAll((paths) =>
      paths.map((path) => ({
        source: path.getAttribute('data-source') ?? '',
        target: path.getAttribute('data-target') ?? '',
        count: Number(path.getAttribute('data-count')),
        width: Number.parseFloat(getComputedStyle(path).strokeWidth),
        edge: path.getAttribute('data-edge') ?? '',
      })),
    );
    const plainWidth = await page
      .locator('svg.chart path.edge:not(.taken)')
      .first()
      .evaluate((path) => Number.parseFloat(getComputedStyle(path).strokeWidth));
    expect(taken.length).toBeGreaterThan(2);
    expect(taken.every((edge) => edge.width > plainWidth && edge.count >= 1)).toBe(true);
    const { outcome } = report;
    // The refine back-edge is taken once per refine cycle, and its label says so.
    const refine = taken.filter(
      (e) => e.source.endsWith('.refining') && e.target.endsWith('.attempting'),
    );
    if (outcome.iterations > 0) {
      expect(refine.map((e) => e.count)).toEqual([outcome.iterations]);
      const label = page.locator(`g.edge-label[data-edge="${refine[0]?.edge}"]`);
      expect(await label.textContent()).toBe(`↻ done.refine ×${outcome.iterations}`);
    } else expect(refine).toEqual([]);
    // Each validating visit in the trace left it along one taken edge.
    const validations = outcome.trace.filter((entry) => entry.state === 'validating').length;
    const fromValidating = taken.filter((e) => e.source.endsWith('.validating'));
    expect(fromValidating.reduce((sum, e) => sum + e.count, 0)).toBe(validations);
    // Every taken edge with a label carries its count; the states it joins are marked visited.
    const labelText = new Map(
      await page
        .locator('g.edge-label')
        .evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-edge'), g.textContent] as const)),
    );
    for (const edge of taken) {
      const text = labelText.get(edge.edge);
      if (text) expect(text.endsWith(` ×${edge.count}`), text).toBe(true);
      for (const state of [edge.source, edge.target]) {
        if (state.includes('#')) continue;
        expect(await page.locator(`[data-state="${state}"]`).getAttribute('class')).toContain(
          'visited',
        );
      }
    }
    // The final state is the current one; states the run never reached are quiet.
    const final = page.locator('.node.current:not(.type-compound)');
    expect(await final.getAttribute('data-state')).toMatch(new RegExp(`\\.${outcome.status}$`));
    expect(await page.locator('.node.quiet').count()).toBeGreaterThan(5);
    expect(errors).toEqual([]);
    await browser.screenshot(page, `report-${name}`);
    await page.close();
  });

  it.each(names)(
    '%s: readable at 1280 px, labels on their own edges, nothing cut off or empty',
    async (name) => {
      const report = reports.find((r) => r.name === name);
      if (!report) throw new Error(`no report ${name}`);
      const { page } = await open(report.file);
      const sizes = await stateLabelSizes(page);
      expect(sizes.length).toBeGreaterThan(15);
      expect(sizes.filter((size) => size.px < 11)).toEqual([]);
      const labels = await labelNeighbours(page);
      expect(labels.length).toBeGreaterThan(15);
      const misplaced = labels.filter(
        (label) => !(Number(label.ownDistance) < label.otherDistance),
      );
      expect(misplaced).toEqual([]);
      // The whole trace shows: its list does not scroll, and its last row (the decision) is not clipped.
      const rows = page.locator('[data-testid=timeline] > li');
      expect(await rows.count()).toBe(report.outcome.trace.length);
      expect(await clipping(page, '[data-testid=timeline] > li:last-child')).toEqual({
        clippedBy: [],
        listScrolls: false,
      });
      const decision = report.outcome.trace.findLast((entry) => entry.decision)?.decision;
      expect(
        await page.locator('[data-testid=timeline] > li.decision').last().textContent(),
      ).toContain(`→ ${decision}`);
      // Every panel shown has something in it; the title is shown once.
      const panels = await panelContents(page);
      expect(panels.filter((panel) => panel.bodyLength === 0)).toEqual([]);
      expect(panels.map((panel) => panel.heading)).not.toContain('Inspection events (0)');
      const title = await page.title();
      // innerText: the text a reader sees (textContent would count the boot data too).
      // biome-ignore lint/performance/useDomNodeTextContent: what is shown, not the markup's text
      expect((await page.locator('body').innerText()).split(title).length - 1).toBe(1);
      // A rationale reads as text: no JSON escapes left in it.
      const rationales = await page.locator('.rationale').allTextContents();
      expect(rationales.filter((text) => /\\[n"]/.test(text))).toEqual([]);
      await page.close();
    },
  );
});
