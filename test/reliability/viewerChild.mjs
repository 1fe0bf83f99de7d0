/**
 * Child process of viewerLoad.test.ts: `node --expose-gc viewerChild.mjs <compiled library>/`.
 * Starts the run viewer on a free port and prints `{ url, inspectUrl }`. Then answers one JSON
 * line per stdin command: `heap` (settled heap and external memory), `stats` (what the store
 * holds, each run's state and event count, and how many messages it sent to watching pages), `close` (closes the viewer and
 * reports what is still open; the process must then exit by itself).
 */
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { settledHeap } from './settledHeap.mjs';

const [libraryDir] = process.argv.slice(2);
const { startViewer } = await import(pathToFileURL(`${libraryDir}entries/viewer.js`).href);

// The viewer sends only to watching pages: count what it sends, to compare with what a page got.
let sentToWatchers = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function countedSend(...args) {
  sentToWatchers += 1;
  return send.apply(this, args);
};

const viewer = await startViewer({ port: 0 });
const say = (message) => writeSync(1, `${JSON.stringify(message)}\n`);
say({ url: viewer.url, inspectUrl: viewer.inspectUrl });

async function settledMemory() {
  const heap = await settledHeap();
  return { heap, external: process.memoryUsage().external };
}

/** What is still open, less the process's own stdio (Node opens stderr when a socket closes). */
function openResources() {
  const resources = process.getActiveResourcesInfo();
  const stdio = process._getActiveHandles().filter((h) => (h.fd ?? h._handle?.fd) <= 2).length;
  for (let i = 0; i < stdio; i++) {
    const at = resources.findIndex((kind) => kind === 'PipeWrap' || kind === 'TTYWrap');
    if (at >= 0) resources.splice(at, 1);
  }
  return resources;
}

/** What the page's run list shows as a run's state: its outcome's status, else the actor's. */
const stateOf = (run) => (typeof run.output?.status === 'string' ? run.output.status : run.status);

function stats() {
  const runs = viewer.runs();
  return {
    runs: runs.length,
    ids: runs.map((run) => run.id),
    states: Object.fromEntries(runs.map((run) => [run.id, stateOf(run)])),
    eventCounts: Object.fromEntries(runs.map((run) => [run.id, run.eventCount])),
    events: runs.reduce((sum, run) => sum + run.eventCount, 0),
    dropped: runs.reduce((sum, run) => sum + run.droppedEvents, 0),
    sentToWatchers,
    polluted: Object.keys(Object.prototype).length > 0 || {}.polluted !== undefined,
  };
}

const commands = createInterface({ input: process.stdin });
commands.on('line', async (line) => {
  if (line === 'heap') say(await settledMemory());
  else if (line === 'stats') say(stats());
  else if (line === 'close') {
    commands.close();
    process.stdin.destroy();
    await viewer.close();
    // Closed handles leave the list on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    say({ closed: true, activeResources: openResources() });
  }
});
