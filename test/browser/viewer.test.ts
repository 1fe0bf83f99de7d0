import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLoopMachine, runLoopMachine } from 'loopchart';
import { connectToViewer, writeRunReport } from 'loopchart/viewer';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { correctable } from '../support/scriptedSteps.js';
import { SCREENSHOTS } from './support/browser.js';
import {
  exhaustingLoop,
  gatedLoop,
  runReported,
  viewerAndBrowser,
} from './support/viewerTestKit.js';

const CRIMSON = 'rgb(220, 20, 60)';
const XSS = '<img src=x onerror=alert(1)>';
const poll = { timeout: 15_000, interval: 50 }; // the first chart loads ELK on the server

const env = viewerAndBrowser();

const badge = (page: Page) => page.locator('[data-testid=loop-badge]');
const badgeText = (page: Page) =>
  badge(page)
    .locator('text')
    .textContent({ timeout: 1000 })
    .catch(() => null);
// One in-page read: a live update may replace the badge between a locator's lookup and its
// evaluate, and a detached element's computed fill is ''.
const fillOf = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return el?.isConnected ? getComputedStyle(el).fill : null;
  }, selector);
const BADGE_RECT = '[data-testid=loop-badge] rect';

describe('the run viewer in headless Chromium', () => {
  it('shows a run that exhausts a cap of 5 as 5/5 in a crimson badge with the iteration_exhausted banner', async () => {
    const outcome = await runReported(env.viewer.inspectUrl, exhaustingLoop(5), 'q');
    expect(outcome).toMatchObject({ status: 'iteration_exhausted', iterations: 5 });
    const { page, errors } = await env.browser.page();
    await page.goto(env.viewer.url);
    const banner = page.locator('[data-testid=status-banner]');
    await expect.poll(() => banner.getAttribute('data-status'), poll).toBe('iteration_exhausted');
    await expect.poll(() => badgeText(page), poll).toBe('5/5');
    expect(await badge(page).getAttribute('class')).toContain('at-cap');
    await expect.poll(() => fillOf(page, BADGE_RECT), poll).toBe(CRIMSON);
    const text = await banner.textContent();
    expect(text).toContain('Correctable errors spent all 5 retries');
    expect(text).toMatch(/cap\s*5/);
    expect(
      await page.locator('[data-state="loop.iteration_exhausted"]').getAttribute('class'),
    ).toContain('current');
    expect(await page.locator('[data-testid=timeline] li').count()).toBe(outcome.trace.length);
    expect(errors).toEqual([]);
    await env.browser.screenshot(page, 'viewer-cap-exhausted');
    await page.close();
  });

  it("advances a running loop's badge live: max 5, then 1/5, then 2/5", async () => {
    const { page, errors } = await env.browser.page();
    await page.goto(env.viewer.url);
    await expect.poll(() => page.locator('#connection').textContent(), poll).toBe('live');
    const { gates, connection, running } = gatedLoop(env.viewer.inspectUrl, 5, 3);
    const current = () =>
      page
        .locator('.node.current')
        .first()
        .getAttribute('data-state')
        .catch(() => null);
    await expect.poll(() => badgeText(page), poll).toBe('max 5');
    await expect.poll(current, poll).toBe('loop.attempting');
    gates[0]?.resolve();
    await expect.poll(() => badgeText(page), poll).toBe('1/5');
    await expect.poll(current, poll).toBe('loop.attempting');
    await env.browser.screenshot(page, 'viewer-live-1-of-5');
    gates[1]?.resolve();
    await expect.poll(() => badgeText(page), poll).toBe('2/5');
    await expect.poll(() => fillOf(page, BADGE_RECT), poll).toMatch(/^rgb/);
    expect(await fillOf(page, BADGE_RECT)).not.toBe(CRIMSON);
    await env.browser.screenshot(page, 'viewer-live-2-of-5');
    gates[2]?.resolve();
    expect((await running).status).toBe('proceed');
    await connection.close();
    await expect
      .poll(() => page.locator('[data-testid=status-banner]').getAttribute('data-status'), poll)
      .toBe('proceed');
    expect(await badgeText(page)).toBe('2/5');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the chart laid out by ELK, with the back-edges (and only those) dashed and marked ↻', async () => {
    await runReported(env.viewer.inspectUrl, exhaustingLoop(2), 'q');
    const { page } = await env.browser.page();
    await page.goto(env.viewer.url);
    await expect.poll(() => page.locator('svg.chart path.edge').count(), poll).toBeGreaterThan(20);
    const edges = await page.locator('svg.chart path.edge').evaluateAll((paths) =>
      paths.map((path) => ({
        back: path.classList.contains('back-edge'),
        dash: getComputedStyle(path).strokeDasharray,
        from: path.getAttribute('data-source'),
        to: path.getAttribute('data-target'),
      })),
    );
    const back = edges.filter((edge) => edge.back);
    expect(back.map((edge) => `${edge.from}>${edge.to}`)).toContain(
      'loop.refining>loop.attempting',
    );
    expect(back.every((edge) => edge.dash !== 'none')).toBe(true);
    expect(edges.filter((edge) => !edge.back).every((edge) => edge.dash === 'none')).toBe(true);
    const backLabels = await page.locator('svg.chart .edge-label.back-edge text').allTextContents();
    expect(backLabels.length).toBe(back.length);
    expect(backLabels.every((label) => label.startsWith('↻'))).toBe(true);
    // A real layout: no two state boxes overlap, and the initial state sits above the finals.
    const boxes = await page.locator('svg.chart .node > rect:first-of-type').evaluateAll((rects) =>
      rects.map((rect) => {
        const box = (rect as SVGGraphicsElement).getBBox();
        return {
          state: rect.parentElement?.getAttribute('data-state') ?? '',
          ...{ x: box.x, y: box.y, w: box.width, h: box.height },
        };
      }),
    );
    const overlaps = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        .map((b) => `${a.state}/${b.state}`),
    );
    expect(overlaps).toEqual([]);
    const y = (state: string) => boxes.find((box) => box.state === state)?.y ?? Number.NaN;
    expect(y('loop.attempting')).toBeLessThan(y('loop.iteration_exhausted'));
    await env.browser.screenshot(page, 'viewer-back-edges');
    await page.close();
  });

  it('tells a capped, an event-gated and an unbounded loop apart, as the termination check does', async () => {
    const inspector = connectToViewer(env.viewer.inspectUrl, { onError: () => {} });
    await runReported(env.viewer.inspectUrl, exhaustingLoop(1), 'q');
    const machines = [
      createMachine({
        id: 'toggle',
        initial: 'off',
        states: { off: { on: { TOGGLE: 'on' } }, on: { on: { TOGGLE: 'off' } } },
      }),
      createMachine({
        id: 'light',
        initial: 'green',
        states: {
          green: { after: { 60000: 'yellow' } },
          yellow: { after: { 60000: 'red' } },
          red: { after: { 60000: 'green' } },
        },
      }),
    ];
    const actors = machines.map((machine) =>
      createActor(machine, { inspect: inspector.inspect }).start(),
    );
    const { page, errors } = await env.browser.page();
    await page.goto(env.viewer.url);
    const legendOf = async (machineId: string) => {
      await page.locator('#runs li button', { hasText: machineId }).first().click();
      const shown = page.locator('article.run', {
        has: page.locator('h2', { hasText: machineId }),
      });
      await shown.locator('svg.chart[data-framed]').waitFor();
      const kinds = await page
        .locator('[data-testid=legend] li[data-cycle]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-cycle')));
      const dashes = await page
        .locator('svg.chart path.edge.back-edge')
        .evaluateAll((paths) =>
          paths.map(
            (path) => `${getComputedStyle(path).stroke} ${getComputedStyle(path).strokeDasharray}`,
          ),
        );
      return { kinds, dash: [...new Set(dashes)] };
    };
    const loop = await legendOf('loop');
    const toggle = await legendOf('toggle');
    const light = await legendOf('light');
    expect(loop.kinds).toContain('capped');
    expect(loop.kinds).not.toContain('unbounded');
    expect(toggle).toMatchObject({ kinds: ['gated'] });
    expect(light).toMatchObject({ kinds: ['unbounded'] });
    // The colours of the diagrams (toMermaid): red unbounded, green bounded.
    expect(light.dash.every((style) => style.startsWith('rgb(198, 40, 40)'))).toBe(true);
    expect(toggle.dash.every((style) => style.startsWith('rgb(46, 125, 50)'))).toBe(true);
    expect(await page.locator('[data-testid=legend]').textContent()).toContain(
      'unbounded loop: nothing stops it',
    );
    const styles = [toggle.dash, light.dash].map((dash) => dash.join());
    expect(new Set([...styles, ...loop.dash]).size).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([]);
    for (const actor of actors) actor.stop();
    await inspector.close();
    await env.browser.screenshot(page, 'viewer-legend-unbounded');
    await page.close();
  });

  it('shows an untrusted candidate and validator message as text: no element injected, no dialog', async () => {
    const outcome = await runReported(
      env.viewer.inspectUrl,
      {
        maxRetries: 1,
        attempt: () => XSS,
        validate: () => correctable(`bad: <script>alert(2)</script> ${XSS}`),
      },
      'q',
    );
    expect(outcome.status).toBe('iteration_exhausted');
    const { page, dialogs, errors } = await env.browser.page();
    await page.goto(env.viewer.url);
    await expect.poll(() => page.locator('[data-testid=candidate]').textContent(), poll).toBe(XSS);
    expect(await page.locator('[data-testid=verdict]').textContent()).toBe(
      `correctable: bad: <script>alert(2)</script> ${XSS}`,
    );
    expect(await page.locator('[data-testid=status-banner]').textContent()).toContain(XSS);
    await page.waitForTimeout(300); // an injected onerror would fire by now
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('body script').count()).toBe(2); // the page's own boot data and script
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await env.browser.screenshot(page, 'viewer-escaped-candidate');
    await page.close();
  });

  it('writes a static report that draws the same chart and timeline offline, escaped', async () => {
    const machine = createLoopMachine<string, string>({
      maxRetries: 5,
      attempt: ({ attempt }) => `${XSS} </script><script>alert(3)</script> #${attempt}`,
      validate: (draft) => correctable(`still wrong: ${draft}`),
    });
    const outcome = await runLoopMachine(machine, 'q');
    const file = join(SCREENSHOTS, '..', 'reports', 'exhausted.html');
    await writeRunReport({ machine, outcome, file });
    const html = await readFile(file, 'utf8');
    expect(html).not.toContain('</script><script>alert(3)');
    const { page, dialogs, errors } = await env.browser.page();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await expect.poll(() => badgeText(page), poll).toBe('5/5');
    await expect.poll(() => fillOf(page, BADGE_RECT), poll).toBe(CRIMSON);
    expect(await page.locator('[data-testid=status-banner]').getAttribute('data-status')).toBe(
      'iteration_exhausted',
    );
    expect(await page.locator('svg.chart path.edge.back-edge').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=timeline] li').count()).toBe(outcome.trace.length);
    expect(await page.locator('[data-testid=candidate]').textContent()).toBe(
      `${XSS} </script><script>alert(3)</script> #6`,
    );
    await page.waitForTimeout(300);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await env.browser.screenshot(page, 'report-exhausted');
    await page.close();
  });
});
