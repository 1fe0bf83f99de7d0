import { beforeAll, describe, expect, it } from 'vitest';
import {
  CATCH_UP_LIMIT_MS,
  MALFORMED_EVERY,
  RATE,
  REPORTERS,
  runViewerLoad,
  SECONDS,
  type ViewerLoadResult,
} from './support/viewerLoadRun.js';

const MiB = 1024 * 1024;
/** What the viewer may hold over its idle baseline once settled: 100 runs × 500 events. */
const SETTLED_BUDGET = 32 * MiB;
/** …and at any moment under load: that, plus up to 16 MiB queued for its watching page. */
const PEAK_BUDGET = SETTLED_BUDGET + 16 * MiB;

describe(`the run viewer under ${RATE} inspection events per second for ${SECONDS} s`, () => {
  let result: ViewerLoadResult;
  beforeAll(async () => {
    result = await runViewerLoad('viewer-load');
  }, 120_000);

  it(`is fed by ${REPORTERS} reporters, each with a run in flight, at the full rate`, () => {
    const { load } = result;
    expect(load.seconds).toBeGreaterThanOrEqual(SECONDS);
    expect(load.sent / load.seconds).toBeGreaterThanOrEqual(RATE * 0.98);
    expect(load.runs).toBeGreaterThan(100);
  });

  it('keeps its memory bound: 100 runs, 500 events a run, and a heap within budget', () => {
    const { stats, baseline, settled, load } = result;
    expect(stats.runs).toBe(100);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(settled.heap - baseline.heap).toBeLessThan(SETTLED_BUDGET);
    for (const { heap, external } of load.samples) {
      expect(heap + external - baseline.heap - baseline.external).toBeLessThan(PEAK_BUDGET);
    }
  });

  it('drops malformed messages: none becomes a run, and its Object.prototype stays clean', () => {
    expect(result.load.malformed).toBeGreaterThanOrEqual((RATE * SECONDS) / MALFORMED_EVERY);
    expect(result.stats.ids.filter((id) => id.includes('junk'))).toEqual([]);
    expect(result.stats.polluted).toBe(false);
  });

  it('sends a watching page each run at most every 100 ms, not every event', () => {
    // about 3 messages a run (its first change, one per window, its end) and one per eviction
    expect(result.stats.sentToWatchers).toBeLessThan(result.load.sent / 4);
  });

  it('a connected page keeps up: never dropped, it receives every message the server sent it', () => {
    expect(result.page.closes).toBe(0);
    expect(result.page.messages).toBe(result.stats.sentToWatchers);
  });

  it(`once the load stops, the page shows exactly the server's runs and their latest state within ${CATCH_UP_LIMIT_MS / 1000} s`, () => {
    expect(result.catchUpMs).toBeLessThan(CATCH_UP_LIMIT_MS);
    expect(result.page.listed.some((id) => id.endsWith(`/${result.load.lastRoot}`))).toBe(true);
    expect(result.page.listed).toHaveLength(100);
  });

  it('a watching page meanwhile throws no error and its Object.prototype stays clean', () => {
    expect(result.page.messages).toBeGreaterThan(0);
    expect(result.pageErrors).toEqual([]);
    expect(result.page.pollutedKeys).toEqual([]);
  });

  it('closes with no open handle and its process exits by itself', () => {
    expect(result.closed.activeResources).toEqual([]);
    expect(result.closed.exitedByItself).toBe(true);
    expect(result.viewerStderr).toBe('');
  });
});
