/**
 * The viewer's health page in Chromium: over the demo's runs and over 10,000 stored runs, every
 * loop shows its four panels with content, the cap marked on the iterations histogram, and no
 * text smaller than 11 px. Screenshots land in artifacts/screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCheckpointStore } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { type RunViewer, startViewer } from 'loopchart/viewer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureStore, replicateRuns } from '../../bench/loops/healthRuns.js';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { runCli } from '../../src/tools/cli/runCli.js';
import { launchChromium } from './support/browser.js';

const HOOK_TIMEOUT = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'loopchart-health-page-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
const stores: SqliteCheckpointStore[] = [];
const viewers: RunViewer[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, HOOK_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  for (const viewer of viewers) await viewer.close();
  for (const store of stores) store.close();
  rmSync(dir, { recursive: true, force: true });
}, HOOK_TIMEOUT);

async function serve(file: string) {
  const store = new SqliteCheckpointStore(file, { readonly: true });
  stores.push(store);
  const viewer = await startViewer({ port: 0, healthStore: store, healthSource: file });
  viewers.push(viewer);
  return viewer;
}

/** Every rendered text's size in px, SVG text scaled by its chart's zoom. */
function textSizes(page: Page) {
  return page.evaluate(() => {
    const sizes: { text: string; px: number }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.closest('title')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      let px = Number.parseFloat(getComputedStyle(element).fontSize);
      const svg = element.closest('svg');
      if (svg) px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      sizes.push({ text: node.textContent.trim().slice(0, 40), px });
    }
    return sizes;
  });
}

async function checkPage(page: Page, loops: number) {
  const sections = page.locator('section.loop-health');
  await expect.poll(() => sections.count()).toBe(loops);
  for (let i = 0; i < loops; i++) {
    const section = sections.nth(i);
    for (const panel of ['outcomes', 'iterations', 'verdicts', 'numbers']) {
      const content = section.locator(`[data-panel=${panel}]`);
      expect(await content.locator('svg, dl, p').count(), `${panel} of loop ${i}`).toBeGreaterThan(
        0,
      );
      expect((await content.boundingBox())?.height ?? 0).toBeGreaterThan(60);
    }
    expect(await section.locator('.outcome').count()).toBe(13);
    const cap = section.locator('.cap-mark');
    await expect.poll(() => cap.count()).toBe(1);
    const capText = await cap.locator('text').textContent();
    expect(capText).toMatch(/^cap: maxRetries = \d+$/);
    const line = await cap.locator('line').evaluate((el) => getComputedStyle(el).stroke);
    expect(line).toBe('rgb(220, 20, 60)');
    expect(await section.locator('.bin rect').count()).toBeGreaterThan(0);
  }
  const small = (await textSizes(page)).filter((t) => t.px < 11);
  expect(small).toEqual([]);
}

describe('the health page', () => {
  it(
    "draws the demo's runs",
    async () => {
      const demo = join(dir, 'demo');
      const capture = captureIo();
      expect(await runCli(['demo', '--dir', demo], capture.io)).toBe(0);
      const viewer = await serve(join(demo, 'runs.db'));
      const { page, errors } = await browser.page();
      const response = await page.goto(`${viewer.url}health`);
      expect(response?.status()).toBe(200);
      const loops = await page.locator('section.loop-health').count();
      expect(loops).toBeGreaterThan(0);
      await checkPage(page, loops);
      expect(await page.locator('nav a[href="/"]').textContent()).toBe('runs');
      await browser.screenshot(page, 'health-demo');
      // On a phone the panels stack and the page is no wider than the window (a chart wider
      // than its panel scrolls inside it, its text still 11 px or more).
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect((await textSizes(page)).filter((t) => t.px < 11)).toEqual([]);
      await browser.screenshot(page, 'health-demo-phone');
      expect(errors).toEqual([]);
      await page.close();
    },
    HOOK_TIMEOUT,
  );

  it(
    'draws 10,000 stored runs, flags and all, with the verdict mix over a week',
    async () => {
      const file = join(dir, 'many.db');
      const templates = (await (await fixtureStore()).scan({ limit: 1000 })) ?? [];
      const target = new SqliteCheckpointStore(file);
      await replicateRuns(templates, target, 10_000, { end: Date.now(), spanMs: 7 * 86_400_000 });
      target.close();
      const viewer = await serve(file);
      const { page, errors } = await browser.page();
      const started = Date.now();
      const response = await page.goto(`${viewer.url}health`);
      expect(response?.status()).toBe(200);
      expect(Date.now() - started).toBeLessThan(30_000);
      await checkPage(page, 5);
      expect(await page.locator('.window').textContent()).toMatch(/^10000 runs in /);
      expect(await page.locator('[data-flag]').count()).toBe(4);
      const buckets = await page.locator('section.loop-health').first().locator('.bucket').count();
      expect(buckets).toBeGreaterThan(5);
      await browser.screenshot(page, 'health-10000-runs');
      const filtered = await page.goto(`${viewer.url}health?loop=fixture-healthy&since=3d`);
      expect(filtered?.status()).toBe(200);
      await checkPage(page, 1);
      expect(await page.locator('[data-flag]').count()).toBe(0);
      const bad = await page.goto(`${viewer.url}health?since=yesterday`);
      expect(bad?.status()).toBe(400);
      expect(errors).toEqual([]);
      await page.close();
    },
    HOOK_TIMEOUT,
  );

  it(
    'says how to get a store when the viewer has none, and escapes loop ids',
    async () => {
      const bare = await startViewer({ port: 0 });
      viewers.push(bare);
      const { page } = await browser.page();
      const none = await page.goto(`${bare.url}health`);
      expect(none?.status()).toBe(404);
      expect(await page.textContent('body')).toContain('loopchart view --db');
      const store = new MemoryCheckpointStore();
      const templates = (await (await fixtureStore(['healthy'])).scan({ limit: 100 })) ?? [];
      await replicateRuns(
        templates.map((r) => ({ ...r, machineId: '<img src=x onerror=alert(1)>' })),
        store,
        25,
        { end: Date.now(), spanMs: 60_000 },
      );
      const odd = await startViewer({ port: 0, healthStore: store });
      viewers.push(odd);
      const { page: oddPage, dialogs } = await browser.page();
      await oddPage.goto(`${odd.url}health`);
      expect(await oddPage.locator('section.loop-health h2').textContent()).toBe(
        '<img src=x onerror=alert(1)>',
      );
      expect(await oddPage.locator('img').count()).toBe(0);
      expect(dialogs).toEqual([]);
      await page.close();
      await oddPage.close();
    },
    HOOK_TIMEOUT,
  );
});
