import { runLoop } from 'loopchart';
import { connectToViewer, startViewer } from 'loopchart/viewer';
import { describe, expect, it, vi } from 'vitest';
import { openWatchedPage } from './support/watchedPage.js';

// V1 in RELIABILITY.md: a page that was away while the server evicted runs must not keep them.
describe('a page that reconnects to the run viewer', () => {
  it('lists and shows only the runs the server still holds (not those evicted while it was away)', async () => {
    const viewer = await startViewer({ port: 0, maxRuns: 2 });
    const watched = await openWatchedPage(viewer.url);
    const report = async () => {
      const connection = connectToViewer(viewer.inspectUrl, { onError: () => {} });
      await runLoop({ attempt: () => 'a', validate: () => ({ valid: true }) }, 'x', {
        inspect: connection.inspect,
      });
      await connection.close();
    };
    const serverIds = () =>
      viewer
        .runs()
        .map((run) => run.id)
        .sort();
    const shown = () =>
      watched.page.evaluate(() => document.querySelector('article.run')?.getAttribute('data-run'));
    try {
      await report();
      await report();
      const wait = { timeout: 15_000, interval: 50 };
      await vi.waitFor(async () => expect((await watched.stats()).listed).toHaveLength(2), wait);
      const before = serverIds();
      await watched.disconnect();
      await report();
      await report();
      await vi.waitFor(
        () => expect(viewer.runs().map((run) => run.label)).toEqual(['loop #3', 'loop #4']),
        wait,
      );
      // While away the page still shows what it had: the runs the server has since dropped.
      expect((await watched.stats()).listed.sort()).toEqual(before);
      await watched.reconnect();
      await vi.waitFor(
        async () => expect((await watched.stats()).listed.sort()).toEqual(serverIds()),
        wait,
      );
      expect(serverIds()).not.toContain(before[0]);
      expect(serverIds()).toContain(await shown());
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
      await viewer.close();
    }
  }, 60_000);
});
