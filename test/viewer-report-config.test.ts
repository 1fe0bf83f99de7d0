import { createLoopMachine, type LoopConfig, MemoryCheckpointStore, runLoop } from 'loopchart';
import { loopHealth } from 'loopchart/health';
import { renderRunReport } from 'loopchart/viewer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHealthPage } from '../src/tools/viewer/health/renderHealthPage.js';
import { correctable, valid } from './support/scriptedSteps.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('renderRunReport for a runLoop caller', () => {
  it('draws the outcome on the chart of its config, the same page as with the machine', async () => {
    let n = 0;
    const config: LoopConfig<string, string> = {
      maxRetries: 4,
      attempt: () => `draft ${++n}`,
      validate: (draft) => (draft === 'draft 3' ? valid : correctable('too short')),
      fallback: () => 'template',
    };
    const outcome = await runLoop(config, 'memo');
    expect(outcome.status).toBe('proceed');
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ['Date'] });
    const fromConfig = await renderRunReport({ config, outcome });
    const fromMachine = await renderRunReport({ machine: createLoopMachine(config), outcome });
    expect(fromConfig).toBe(fromMachine);
    expect(fromConfig).toContain('fallingBack');
    expect(fromConfig).toContain('loop: proceed');
  });
});

describe('the live viewer page', () => {
  it('links to the health page, which says how to get one when the viewer has no store', async () => {
    const { startViewer } = await import('loopchart/viewer');
    const viewer = await startViewer({ port: 0 });
    try {
      const page = await (await fetch(viewer.url)).text();
      expect(page).toContain('<nav id="nav"><a href="/health">health</a></nav>');
      const health = await fetch(new URL('/health', viewer.url));
      expect(health.status).toBe(404);
      expect(await health.text()).toMatch(
        /^no store: start the viewer with one \(loopchart view --db/,
      );
    } finally {
      await viewer.close();
    }
  });
});

describe('one HTML escaper for the run report and the health page', () => {
  const hostile = `<img src=x onerror="alert('x')">&`;
  const escaped = '&#60;img src=x onerror=&#34;alert(&#39;x&#39;)&#34;&#62;&#38;';

  it("escapes a report's title", async () => {
    const outcome = await runLoop({ attempt: () => 'x', validate: () => valid }, 'memo');
    const page = await renderRunReport({
      config: { attempt: () => 'x', validate: () => valid },
      outcome,
      title: hostile,
    });
    expect(page).toContain(`<title>${escaped}</title>`);
    expect(page).not.toContain(hostile);
  });

  it("escapes the health page's store name and loop filter", async () => {
    const report = await loopHealth(new MemoryCheckpointStore(), { loop: hostile });
    const page = renderHealthPage(report, { source: hostile });
    expect(page).toContain(`<p>${escaped} holds no loop runs of ${escaped} in this window.`);
    expect(page).not.toContain(hostile);
  });
});
