/**
 * Every kind of run the viewer draws, at a desktop's 1280×900 and a phone's 390×844: a loop that
 * refined and fell back and one that first took the rate-limit detour (live, and as reports), a
 * pipeline with its stage loops, an agent's run and a plain XState machine. Each opens framed on its whole path, with no edge label over
 * another, text at 11 px or more, and the page no wider than the window. "In view" means inside
 * the chart, which starts in the first window and is at most three windows tall: the page scrolls
 * down to the rest, nothing is a drag away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLoopMachine, type LoopConfig, runLoopMachine, transientFailure } from 'loopchart';
import { createAgent, runAgent } from 'loopchart/agent';
import { runPipeline } from 'loopchart/pipeline';
import { connectToViewer, type RunView, writeRunReport } from 'loopchart/viewer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { correctable, valid } from '../support/scriptedSteps.js';
import { chartFit } from './support/chartChecks.js';
import { HOOK_TIMEOUT, viewerAndBrowser } from './support/viewerTestKit.js';

const poll = { timeout: 60_000, interval: 100 }; // layouts run on a busy machine's server
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const env = viewerAndBrowser();
const dir = mkdtempSync(join(tmpdir(), 'loopchart-fit-'));
const reports = { refine: '', detour: '' };

/** Drafts are rejected as too long: one refine, then the cap, and the fallback answers. */
const refineLoop = (): LoopConfig<string, string> => ({
  id: 'summary',
  maxRetries: 1,
  attempt: ({ attempt }) => `draft ${attempt}`,
  validate: () => correctable('too long'),
  fallback: () => 'a safe summary',
});

/** The same, after a first attempt that hits a 429 (the transient-retry detour). */
const detourLoop = (): LoopConfig<string, string> => ({
  ...refineLoop(),
  id: 'headline',
  attempt: ({ attempt }) => {
    if (attempt === 1)
      throw transientFailure('429 Too Many Requests', { effect: 'none', retryAfterMs: 1 });
    return `draft ${attempt}`;
  },
});

const crossing = createMachine({
  id: 'crossing',
  initial: 'green',
  states: {
    green: { on: { TIMER: 'yellow' } },
    yellow: { on: { TIMER: 'red' } },
    red: {
      initial: 'walk',
      states: { walk: { on: { COUNTDOWN: 'wait' } }, wait: { on: { STOP: 'stop' } }, stop: {} },
    },
  },
  on: { POWER_CUT: '.green' },
});

beforeAll(async () => {
  const viewer = connectToViewer(env.viewer.inspectUrl, { onError: () => {} });
  const inspect = viewer.inspect;
  for (const [name, config] of [
    ['refine', refineLoop()],
    ['detour', detourLoop()],
  ] as const) {
    const machine = createLoopMachine(config);
    const outcome = await runLoopMachine(machine, 'q', { inspect });
    expect(outcome.status).toBe('fallback');
    const file = join(dir, `${name}.html`);
    reports[name] = await writeRunReport({ machine, outcome, file });
  }
  const stage = { maxRetries: 2, attempt: () => 'row', validate: () => valid };
  await runPipeline(
    {
      id: 'revenue',
      stages: [
        { id: 'lookup', loop: stage },
        { id: 'compare', dependsOn: ['lookup'], loop: stage },
      ],
    },
    'Q3',
    { inspect },
  );
  const agent = createAgent({
    task: { attempt: ({ input }) => `answer: ${input}`, validate: () => valid },
  });
  await runAgent(agent, 'Draft a reply to this complaint', { inspect });
  const actor = createActor(crossing, { inspect }).start();
  for (const type of ['TIMER', 'TIMER', 'COUNTDOWN', 'POWER_CUT', 'TIMER']) actor.send({ type });
  actor.stop();
  await viewer.close();
}, HOOK_TIMEOUT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The run's id once the server holds its final chart (not laid out again any more). */
async function settledRun(match: (run: RunView) => boolean) {
  let found: RunView | undefined;
  await expect
    .poll(() => {
      found = env.viewer.runs().find(match);
      return found && found.status !== 'active' && found.chartId && !found.chartPending;
    }, poll)
    .toBeTruthy();
  return found as RunView;
}

/** Opens the live viewer at a viewport, selects the run and waits until its chart is framed. */
async function openLive(viewport: (typeof VIEWPORTS)[number], run: RunView) {
  const tab = await env.browser.page();
  await tab.page.setViewportSize(viewport);
  await tab.page.goto(env.viewer.url);
  await tab.page.locator(`#runs li[data-run="${run.id}"] button`).click();
  await framed(tab.page, run.chartId);
  return tab;
}

async function framed(page: Page, chartId: string | undefined) {
  const chart = chartId === undefined ? '.chart-wrap' : `.chart-wrap[data-chart="${chartId}"]`;
  await page.locator(`${chart} svg.chart[data-framed]`).waitFor({ timeout: poll.timeout });
}

const kinds: Array<[string, (run: RunView) => boolean]> = [
  ['a loop that refined and fell back', (run) => run.machineId === 'summary'],
  ['a loop that also took the transient-retry detour', (run) => run.machineId === 'headline'],
  ['a pipeline', (run) => run.machineId === 'revenue'],
  ["a pipeline's stage loop", (run) => run.machineId === 'stage:compare'],
  ["an agent's run", (run) => run.machineId === 'agent'],
  ['a plain XState machine', (run) => run.machineId === 'crossing'],
];
const reportCases: Array<[string, keyof typeof reports]> = [
  ['a loop that refined and fell back', 'refine'],
  ['a loop that also took the transient-retry detour', 'detour'],
];

/** The checks every chart must pass as it opens. */
function expectFramed(fit: Awaited<ReturnType<typeof chartFit>>, what: string) {
  expect(fit.pathParts, what).toBeGreaterThan(3);
  expect(fit.outOfView, what).toEqual([]);
  expect(fit.labelOverlaps, what).toEqual([]);
  expect(fit.labelsOnStates, what).toEqual([]);
  expect(fit.smallestText, what).toBeGreaterThanOrEqual(11);
  expect(fit.overflow, what).toBeLessThanOrEqual(0);
  // In view on open: the chart starts in the first window and the page scrolls down to the rest.
  expect(fit.chartTop, what).toBeLessThan(1);
  expect(fit.chartHeight, what).toBeLessThanOrEqual(3);
}

async function openReport(viewport: (typeof VIEWPORTS)[number], file: string) {
  const tab = await env.browser.page();
  await tab.page.setViewportSize(viewport);
  await tab.page.goto(pathToFileURL(file).href);
  await framed(tab.page, undefined);
  return tab;
}

describe.each(VIEWPORTS)('the viewer at $width×$height', (viewport) => {
  it.each(kinds)(
    '%s opens on its whole path, readable, labels apart',
    async (kind, match) => {
      const run = await settledRun(match);
      const { page, errors } = await openLive(viewport, run);
      const fit = await chartFit(page);
      await env.browser.screenshot(page, `fit-${viewport.name}-${kind.replace(/\W+/g, '-')}`);
      expectFramed(fit, kind);
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it.each(reportCases)(
    'the report of %s opens on its whole path, readable',
    async (kind, name) => {
      const { page, errors } = await openReport(viewport, reports[name]);
      const fit = await chartFit(page);
      await env.browser.screenshot(page, `fit-${viewport.name}-report-${name}`);
      expectFramed(fit, kind);
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );
});

describe('moving the view, every state, a phone', () => {
  it('Fit frames the path again after a drag; every state draws all in full colour without zooming out', async () => {
    const run = await settledRun((r) => r.machineId === 'summary');
    const { page, errors } = await openLive(VIEWPORTS[0], run);
    const svg = page.locator('svg.chart');
    const box = await svg.boundingBox();
    if (!box) throw new Error('no chart box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 700, box.y + box.height / 2 - 500, { steps: 4 });
    await page.mouse.up();
    expect(await svg.getAttribute('data-framed')).toBeNull();
    expect((await chartFit(page)).outOfView.length).toBeGreaterThan(3);
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.locator('svg.chart[data-framed]').waitFor();
    expectFramed(await chartFit(page), 'after Fit');

    await page.getByTestId('show-all').check();
    await page.locator('svg.chart[data-framed]').waitFor();
    expect(await page.locator('svg.chart .quiet').count()).toBe(0);
    expectFramed(await chartFit(page), 'every state');
    await env.browser.screenshot(page, 'fit-desktop-every-state');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('on a phone the run list sits above the run, and the run has the whole width', async () => {
    const run = await settledRun((r) => r.machineId === 'summary');
    const { page } = await openLive(VIEWPORTS[1], run);
    const boxes = await page.evaluate(() => {
      const rect = (selector: string) => {
        const r = (document.querySelector(selector) as Element).getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, width: r.width };
      };
      return { list: rect('aside'), run: rect('#run'), chart: rect('svg.chart') };
    });
    expect(boxes.list.bottom).toBeLessThanOrEqual(boxes.run.top + 1);
    expect(boxes.run.width).toBeGreaterThanOrEqual(389);
    expect(boxes.chart.width).toBeGreaterThanOrEqual(380);
    await page.close();
  }, 120_000);
});
