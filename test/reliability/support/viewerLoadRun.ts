import type { WireEvent } from 'loopchart/viewer';
import type { WebSocket } from 'ws';
import { openSocket } from '../../browser/support/viewerTestKit.js';
import { compileLibrary, removeLibrary } from '../../support/compileLibrary.js';
import { recordFigures } from './figures.js';
import { HOSTILE_FRAMES, MALFORMED_MESSAGES, recordRun, replayAs } from './inspectionReplay.js';
import {
  startViewerProcess,
  type ViewerMemory,
  type ViewerProcess,
  type ViewerStats,
} from './viewerProcess.js';
import { openWatchedPage, type PageStats } from './watchedPage.js';

export const RATE = 1_000;
export const SECONDS = 10;
export const REPORTERS = 5;
/** One malformed message after every this many events (on top of the rate). */
export const MALFORMED_EVERY = 20;
/** How long a page may take to show the server's state once the load stopped (a bound, not a target). */
export const CATCH_UP_LIMIT_MS = 5_000;
/** How long to keep polling for it, so that a slow catch-up is still measured. */
const POLL_LIMIT_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Load {
  sent: number;
  malformed: number;
  runs: number;
  seconds: number;
  lastRoot: string;
  samples: ViewerMemory[];
}

/**
 * Sends the recorded run over `sockets` at `RATE` events per second for `SECONDS`, then finishes
 * the runs in flight: the first socket replays one run over and over (a long run), the others
 * replay it as ever new runs, so `sockets.length` runs are in flight at once and the viewer's
 * bounds (100 runs, 500 events a run) are both reached. Samples the viewer's memory every 2.5 s.
 */
async function drive(sockets: WebSocket[], recorded: WireEvent[], viewer: ViewerProcess) {
  const queues: string[][] = sockets.map(() => []);
  const load: Load = { sent: 0, malformed: 0, runs: 0, seconds: 0, lastRoot: '', samples: [] };
  const sample = () => viewer.memory().then((memory) => void load.samples.push(memory));
  const sendNext = (index: number) => {
    if (queues[index]?.length === 0 && index === 0) {
      queues[index] = replayAs(recorded, 0, true);
    } else if (queues[index]?.length === 0) {
      load.runs += 1;
      load.lastRoot = `r${load.runs}-${recorded[0]?.rootId}`;
      queues[index] = replayAs(recorded, load.runs);
    }
    const socket = sockets[index] as WebSocket;
    socket.send(queues[index]?.shift() as string);
    load.sent += 1;
    if (load.sent % MALFORMED_EVERY === 0) {
      socket.send(MALFORMED_MESSAGES[load.malformed % MALFORMED_MESSAGES.length] as string);
      load.malformed += 1;
    }
  };
  for (const frame of HOSTILE_FRAMES) sockets[0]?.send(frame);
  const samples: Promise<void>[] = [];
  const started = performance.now();
  for (let nextSample = 2.5; ; await sleep(5)) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= nextSample && elapsed < SECONDS) {
      nextSample += 2.5;
      samples.push(sample());
    }
    // every event due by now, and at the end all RATE × SECONDS of them: a loaded machine wakes
    // this loop late, and its last turn before SECONDS must not leave the final events unsent
    const due = Math.floor(RATE * Math.min(elapsed, SECONDS)) - load.sent;
    for (let k = 0; k < due; k += 1) sendNext(load.sent % sockets.length);
    if (elapsed >= SECONDS) break;
  }
  load.seconds = (performance.now() - started) / 1000;
  samples.push(sample());
  queues.forEach((queue, index) => {
    while (queue.length > 0) sendNext(index);
  });
  await Promise.all(samples);
  return load;
}

export interface ViewerLoadResult {
  load: Load;
  baseline: ViewerMemory;
  settled: ViewerMemory;
  stats: ViewerStats;
  /** What the page had received when the load stopped, of what the server had sent it. */
  atStop: { sentToPage: number; received: number };
  page: PageStats;
  pageErrors: string[];
  /** From the last event sent until the page showed the server's final state; Infinity if never. */
  catchUpMs: number;
  closed: Awaited<ReturnType<ViewerProcess['close']>>;
  viewerStderr: string;
}

/**
 * The page shows what the server holds: it got every message the server sent it, lists exactly the
 * server's runs with the state the server has for each, and its panel shows the selected run's
 * latest event count.
 */
export function pageShowsServer(stats: ViewerStats, page: PageStats): boolean {
  const ids = Object.keys(stats.states).sort();
  return (
    page.messages === stats.sentToWatchers &&
    JSON.stringify(page.listed.slice().sort()) === JSON.stringify(ids) &&
    ids.every((id) => page.states[id] === stats.states[id]) &&
    page.shown !== undefined &&
    page.shown.events === stats.eventCounts[page.shown.id]
  );
}

/**
 * The whole scenario: the viewer in its own process (compiled from `src`), a Chromium page
 * watching it, `REPORTERS` sockets feeding it. Once the load stops, polls both every 50 ms until
 * the page has shown the server's state for 300 ms while the server sent nothing new; the catch-up
 * is when that streak began.
 */
export async function runViewerLoad(name: string): Promise<ViewerLoadResult> {
  const built = compileLibrary(name, ['entries/index.ts', 'entries/viewer.ts']);
  const viewer = await startViewerProcess(`${built.lib}/`);
  const watched = await openWatchedPage(viewer.url);
  try {
    const recorded = await recordRun();
    const sockets = await Promise.all(
      Array.from({ length: REPORTERS }, () => openSocket(viewer.inspectUrl)),
    );
    const baseline = await viewer.memory();
    const load = await drive(sockets, recorded, viewer);
    const sentAt = performance.now();
    for (const socket of sockets) socket.close();
    let page = await watched.stats(); // the page first: it cannot have received what was not sent
    let stats = await viewer.stats();
    const atStop = { sentToPage: stats.sentToWatchers, received: page.messages };
    let catchUpMs = Number.POSITIVE_INFINITY;
    // A streak of polls in which the page showed the server's state and the server sent nothing.
    let streak: { since: number; server: string } | undefined;
    for (;;) {
      stats = await viewer.stats();
      page = await watched.stats();
      const at = performance.now() - sentAt;
      const server = `${stats.events}/${stats.sentToWatchers}`;
      if (!pageShowsServer(stats, page)) streak = undefined;
      else if (streak?.server !== server) streak = { since: at, server };
      else if (at - streak.since >= 300) {
        catchUpMs = streak.since;
        break;
      }
      if (at > POLL_LIMIT_MS) break;
      await sleep(50);
    }
    await watched.close(); // its socket's backlog goes with it: what stays is the store
    await sleep(200);
    const settled = await viewer.memory();
    const closed = await viewer.close(10_000);
    const result = { load, baseline, settled, stats, atStop, page, catchUpMs, closed };
    recordFigures(name, summary(result));
    return { ...result, pageErrors: watched.errors, viewerStderr: viewer.stderr() };
  } finally {
    await watched.close();
    removeLibrary(built.base);
  }
}

function summary({
  load,
  stats,
  page,
  catchUpMs,
  ...rest
}: Omit<ViewerLoadResult, 'pageErrors' | 'viewerStderr'>) {
  return {
    eventsPerSecond: Math.round(load.sent / load.seconds),
    reporters: REPORTERS,
    ...load,
    ...rest,
    runsHeld: stats.runs,
    eventsDropped: stats.dropped,
    sentToPage: stats.sentToWatchers,
    page: { ...page, listed: page.listed.length, states: undefined },
    catchUpMs: Number.isFinite(catchUpMs) ? Math.round(catchUpMs) : 'not within the limit',
  };
}
