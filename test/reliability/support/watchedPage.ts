import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

/** What the page measured about itself since it loaded. */
export interface PageStats {
  /** WebSocket messages received and their characters. */
  messages: number;
  chars: number;
  /** WebSocket closes (the server drops a watcher that falls 16 MiB behind). */
  closes: number;
  /** The longest a 50 ms timer fired late: how long the page's main thread was busy. */
  maxLagMs: number;
  /** Main-thread time the page spent in tasks and in scripts (DevTools Performance metrics). */
  taskMs: number;
  scriptMs: number;
  /** The run ids the page lists, and the state each shows. */
  listed: string[];
  states: Record<string, string>;
  /** The run drawn in the panel, and the inspection event count its panel shows. */
  shown: { id: string; events: number } | undefined;
  /** `({}).polluted` and Object.prototype's own enumerable keys, in the page. */
  pollutedKeys: string[];
}

// Runs in the page before its own script: counts what its WebSocket receives and how late timers
// fire, and can cut the page off (its reconnects then fail at once, without touching the network,
// so Chromium's throttling of failing WebSocket endpoints cannot slow the reconnect). Injected by
// the DevTools protocol, so the page's Content-Security-Policy does not apply.
const INSTRUMENT = `(() => {
  const stats = { messages: 0, chars: 0, closes: 0, maxLagMs: 0 };
  window.__loopchartStats = stats;
  window.__loopchartSockets = [];
  const Native = window.WebSocket;
  class Offline extends EventTarget {
    readyState = 3;
    constructor() {
      super();
      setTimeout(() => this.dispatchEvent(new CloseEvent('close', { code: 1006 })), 10);
    }
    send() {}
    close() {}
  }
  window.WebSocket = class extends Native {
    constructor(url, ...rest) {
      if (window.__loopchartOffline) return new Offline();
      super(url, ...rest);
      window.__loopchartSockets.push(this);
      this.addEventListener('message', (m) => { stats.messages += 1; stats.chars += String(m.data).length; });
      this.addEventListener('close', () => { stats.closes += 1; });
    }
  };
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    stats.maxLagMs = Math.max(stats.maxLagMs, now - last - 50);
    last = now;
  }, 50);
})();`;

/** Debian's Chromium (never a downloaded one), headless, on the viewer page, instrumented. */
export async function openWatchedPage(url: string) {
  const profile = await mkdtemp(join(tmpdir(), 'loopchart-reliability-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  let closed = false;
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(INSTRUMENT);
  const devtools = await context.newCDPSession(page);
  await devtools.send('Performance.enable');
  const metric = async (name: string) => {
    const { metrics } = await devtools.send('Performance.getMetrics');
    return Math.round((metrics.find((m) => m.name === name)?.value ?? 0) * 1000);
  };
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('connection')?.textContent === 'live');
  return {
    page,
    errors,
    stats: async (): Promise<PageStats> => ({
      taskMs: await metric('TaskDuration'),
      scriptMs: await metric('ScriptDuration'),
      ...(await page.evaluate(() => ({
        ...(
          window as unknown as {
            __loopchartStats: Pick<PageStats, 'messages' | 'chars' | 'closes' | 'maxLagMs'>;
          }
        ).__loopchartStats,
        listed: [...document.querySelectorAll('li[data-run]')].map(
          (li) => li.getAttribute('data-run') ?? '',
        ),
        states: Object.fromEntries(
          [...document.querySelectorAll('li[data-run]')].map((li) => [
            li.getAttribute('data-run') ?? '',
            li.querySelector('.state')?.textContent ?? '',
          ]),
        ),
        shown: (() => {
          const run = document.querySelector('article.run');
          const heading = [...(run?.querySelectorAll('h3') ?? [])].find((h) =>
            h.textContent?.startsWith('Inspection events ('),
          );
          const events = /\((\d+)/.exec(heading?.textContent ?? '')?.[1];
          const id = run?.getAttribute('data-run');
          return id && events ? { id, events: Number(events) } : undefined;
        })(),
        pollutedKeys: [
          ...Object.keys(Object.prototype),
          ...(({} as { polluted?: unknown }).polluted === undefined ? [] : ['polluted']),
        ],
      }))),
    }),
    /** Closes the page's socket and keeps it from reconnecting until `reconnect()`. */
    async disconnect() {
      await page.evaluate(() => {
        const w = window as unknown as {
          __loopchartOffline: boolean;
          __loopchartSockets: WebSocket[];
        };
        w.__loopchartOffline = true;
        w.__loopchartSockets.at(-1)?.close();
      });
      await page.waitForFunction(() => document.getElementById('connection')?.className === 'down');
    },
    async reconnect() {
      await page.evaluate(() => {
        (window as unknown as { __loopchartOffline: boolean }).__loopchartOffline = false;
      });
      await page.waitForFunction(() => document.getElementById('connection')?.className === 'live');
    },
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
