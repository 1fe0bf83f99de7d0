/**
 * Watching loops: loopchart's own run viewer, fed two ways, and a static run report.
 * - `startViewer` serves the viewer page and its WebSocket on 127.0.0.1 (what `loopchart view` runs);
 * - `connectToViewer` reports a loop to it: one try, no retry loop, never holds the process open;
 * - `@statelyai/inspect`'s WebSocket inspector reports to the same viewer unchanged
 *   (with `serializationDepthLimit: 40`, or the machine definition is cut off at depth 10);
 * - `writeRunReport` writes a finished run as one self-contained HTML file.
 * Run it from a clone of the repository: `npm run example -- inspector` (`… inspector --serve`
 * keeps the viewer open on http://127.0.0.1:4242 until Ctrl-C).
 */
import { createWebSocketInspector } from '@statelyai/inspect';
import { createLoopMachine, runLoop, runLoopMachine } from 'loopchart';
import { connectToViewer, startViewer, writeRunReport } from 'loopchart/viewer';

const serve = process.argv.includes('--serve');
const viewer = await startViewer({ port: serve ? 4242 : 0 });
console.log(`viewer: ${viewer.url}`);

// 1. A headline that needs two refines, reported with loopchart's helper.
const connection = connectToViewer(viewer.inspectUrl);
const headline = await runLoop<string, string>(
  {
    maxRetries: 5,
    attempt: ({ input, feedback }) => (feedback ? input : `${input}: ${'very '.repeat(8)}long`),
    refine: ({ candidate }) => candidate.split(':')[0] ?? candidate, // keep the part before the colon
    validate: (text) =>
      text.length <= 24
        ? { valid: true }
        : {
            valid: false,
            error: { severity: 'correctable', message: `${text.length} > 24 characters` },
          },
  },
  'Quiet headphones',
  { inspect: connection.inspect },
);
await connection.close();
console.log(`headline: ${headline.status} after ${headline.iterations} refine(s)`);

// 2. A loop that never satisfies its validator, reported by @statelyai/inspect's inspector.
const stubborn = createLoopMachine<string, string>({
  maxRetries: 3,
  attempt: ({ attempt }) => `draft ${attempt}`,
  validate: (draft) => ({
    valid: false,
    error: { severity: 'correctable', message: `${draft} is missing a date` },
  }),
});
const inspector = createWebSocketInspector({ url: viewer.inspectUrl, serializationDepthLimit: 40 });
const exhausted = await runLoopMachine(stubborn, 'write the notice', {
  inspect: inspector.inspect,
});
for (
  let wait = 0;
  wait < 100 &&
  !viewer.runs().some((run) => run.output !== undefined && run.label.startsWith('loop #2'));
  wait += 1
) {
  await new Promise((resolve) => setTimeout(resolve, 20)); // its events leave on a timer
}
inspector.stop();
console.log(`notice: ${exhausted.status}${exhausted.ok ? '' : ` (${exhausted.error.message})`}`);

// 3. The finished run as a file anyone can open, offline.
const report = await writeRunReport({
  machine: stubborn,
  outcome: exhausted,
  file: 'artifacts/reports/inspector-example.html',
});
console.log(`report: ${report}`);
console.log(
  `runs in the viewer: ${viewer
    .runs()
    .map((run) => `${run.label} ${run.status}`)
    .join(', ')}`,
);

if (serve) {
  console.log(`open ${viewer.url} — Ctrl-C stops it`);
  await new Promise((resolve) => process.once('SIGINT', resolve));
}
await viewer.close();
