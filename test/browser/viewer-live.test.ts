import { createWebSocketInspector } from '@statelyai/inspect';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import {
  clipping,
  labelNeighbours,
  panelContents,
  stateLabelSizes,
} from './support/chartChecks.js';
import { gatedLoop, viewerAndBrowser } from './support/viewerTestKit.js';

const LAST_ROW = '[data-testid=timeline] > li:last-child';
const poll = { timeout: 15_000, interval: 50 };
const env = viewerAndBrowser();

async function openViewer() {
  const tab = await env.browser.page();
  await tab.page.setViewportSize({ width: 1280, height: 900 });
  await tab.page.goto(env.viewer.url);
  await expect.poll(() => tab.page.locator('#connection').textContent(), poll).toBe('live');
  return tab;
}
const badgeText = (page: Page) =>
  page
    .locator('[data-testid=loop-badge] text')
    .textContent({ timeout: 500 })
    .catch(() => null);
const currentState = (page: Page) =>
  page
    .locator('.node.current:not(.type-compound)')
    .first()
    .getAttribute('data-state', { timeout: 500 })
    .catch(() => null);

describe('the live viewer at 1280 px', () => {
  it('keeps the newest trace row and event in sight as a loop runs, and pauses when the user scrolls up', async () => {
    const { page, errors } = await openViewer();
    const { gates, connection, running } = gatedLoop(env.viewer.inspectUrl, 12, 12);
    const trace = page.locator('[data-testid=timeline]');
    const lastRow = () => page.locator(LAST_ROW);
    await expect.poll(() => badgeText(page), poll).toBe('max 12');
    // The state the loop is in pulses while it runs.
    await expect.poll(() => currentState(page), poll).toBe('loop.attempting');
    // found and read in one page task: a redraw between the two would read a detached rect ('')
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const rect = document.querySelector('.node.current.live > rect');
            return rect?.isConnected ? getComputedStyle(rect).animationName : null;
          }),
        poll,
      )
      .toBe('pulse');
    for (let n = 1; n <= 8; n += 1) {
      gates[n - 1]?.resolve();
      await expect.poll(() => badgeText(page), poll).toBe(`${n}/12`);
    }
    // the badge counts the refine at the routing decision; the refining row comes in a later update
    await expect.poll(() => lastRow().textContent(), poll).toContain('refining');
    await expect.poll(async () => (await clipping(page, LAST_ROW)).listScrolls, poll).toBe(true);
    await expect.poll(async () => (await clipping(page, LAST_ROW)).clippedBy, poll).toEqual([]);
    expect((await clipping(page, '[data-scroll=events] > li:last-child')).clippedBy).toEqual([]);
    await env.browser.screenshot(page, 'viewer-live');

    // Scrolled up, the list stays where the user put it and offers the way back.
    // a redraw may replace the list between finding it and scrolling it: scroll the one shown
    await expect
      .poll(
        () =>
          trace.evaluate((list) => {
            list.scrollTop = 0;
            list.dispatchEvent(new Event('scroll'));
            return list.isConnected && list.scrollTop === 0;
          }),
        poll,
      )
      .toBe(true);
    const rowsBefore = await page.locator('[data-testid=timeline] > li').count();
    gates[8]?.resolve();
    await expect.poll(() => badgeText(page), poll).toBe('9/12');
    await expect
      .poll(() => page.locator('[data-testid=timeline] > li').count(), poll)
      .toBeGreaterThan(rowsBefore);
    expect(await trace.evaluate((list) => list.scrollTop)).toBe(0);
    expect((await clipping(page, LAST_ROW)).clippedBy).not.toEqual([]);
    const resume = page.locator('[data-testid=resume-trace]');
    expect(await resume.isVisible()).toBe(true);
    await resume.click();
    expect((await clipping(page, LAST_ROW)).clippedBy).toEqual([]);
    await expect.poll(() => resume.isVisible(), poll).toBe(false);

    for (const gate of gates.slice(9)) gate.resolve();
    expect((await running).status).toBe('proceed');
    await connection.close();
    await expect
      .poll(() => page.locator('[data-testid=status-banner]').getAttribute('data-status'), poll)
      .toBe('proceed');
    await expect.poll(() => page.locator('.node.current.live').count(), poll).toBe(0);
    expect((await stateLabelSizes(page)).filter((size) => size.px < 11)).toEqual([]);
    expect(
      (await labelNeighbours(page)).filter((l) => !(Number(l.ownDistance) < l.otherDistance)),
    ).toEqual([]);
    expect((await panelContents(page)).filter((panel) => panel.bodyLength === 0)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws a plain XState machine reported by @statelyai/inspect's createWebSocketInspector: its states, path and current state", async () => {
    const machine = setup({
      actors: { restart: fromPromise(async () => 'ok') },
      guards: { daytime: () => true },
    }).createMachine({
      id: 'crossing',
      initial: 'green',
      states: {
        green: { on: { TIMER: 'yellow' } },
        yellow: { on: { TIMER: { target: 'red', guard: 'daytime' } } },
        red: {
          initial: 'walk',
          states: {
            walk: { on: { COUNTDOWN: 'wait' } },
            wait: { on: { STOP: 'stop' } },
            stop: { type: 'final' },
          },
          onDone: 'rebooting',
        },
        rebooting: { invoke: { src: 'restart', onDone: 'green' } },
        broken: { type: 'final' },
      },
      on: { POWER_CUT: '.broken' },
    });
    const { page, errors } = await openViewer();
    const inspector = createWebSocketInspector({ url: env.viewer.inspectUrl });
    const actor = createActor(machine, { inspect: inspector.inspect }).start();
    try {
      const states = () =>
        page
          .locator('svg.chart [data-state]')
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')));
      const entry = page.locator('#runs li button', { hasText: 'crossing' });
      await expect.poll(() => entry.count(), poll).toBe(1);
      await entry.click();
      await expect
        .poll(states, poll)
        .toEqual(
          expect.arrayContaining([
            'crossing.green',
            'crossing.yellow',
            'crossing.red',
            'crossing.red.walk',
            'crossing.red.wait',
            'crossing.red.stop',
            'crossing.rebooting',
            'crossing.broken',
          ]),
        );
      await expect.poll(() => currentState(page), poll).toBe('crossing.green');
      actor.send({ type: 'TIMER' });
      actor.send({ type: 'TIMER' });
      await expect.poll(() => currentState(page), poll).toBe('crossing.red.walk');
      expect(await page.locator('[data-state="crossing.red"]').getAttribute('class')).toContain(
        'current',
      );
      actor.send({ type: 'COUNTDOWN' });
      await expect.poll(() => currentState(page), poll).toBe('crossing.red.wait');
      const taken = await page
        .locator('svg.chart path.edge.taken')
        .evaluateAll((paths) =>
          paths.map(
            (p) =>
              `${p.getAttribute('data-source')}>${p.getAttribute('data-target')} ×${p.getAttribute('data-count')}`,
          ),
        );
      expect(taken).toEqual(
        expect.arrayContaining([
          'crossing.green>crossing.yellow ×1',
          'crossing.yellow>crossing.red ×1',
          'crossing.red.walk>crossing.red.wait ×1',
        ]),
      );
      expect(await page.locator('[data-state="crossing.broken"]').getAttribute('class')).toContain(
        'quiet',
      );
      expect(await page.locator('[data-testid=loop-badge]').count()).toBe(0);
      expect((await stateLabelSizes(page)).filter((size) => size.px < 11)).toEqual([]);
      expect((await panelContents(page)).filter((panel) => panel.bodyLength === 0)).toEqual([]);
      expect(await page.locator('[data-testid=panel-events]').count()).toBe(1);
      await env.browser.screenshot(page, 'viewer-any-machine');
      actor.send({ type: 'STOP' });
      await expect.poll(() => currentState(page), poll).toBe('crossing.green');
      expect(
        await page
          .locator('path.edge[data-source="crossing.rebooting"]')
          .first()
          .getAttribute('data-count'),
      ).toBe('1');
      expect(errors).toEqual([]);
    } finally {
      actor.stop();
      inspector.stop();
      await page.close();
    }
  });
});
