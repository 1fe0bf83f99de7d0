/**
 * Preloaded into a server under test (`node --import loopWatch.mjs cli.js view …`): watches its
 * event loop (see eventLoopWatch.mjs) and writes what it saw, as JSON, to the file named by
 * LOOP_WATCH_FILE every 250 ms and when the process exits.
 */
import { writeFileSync } from 'node:fs';
import { watchEventLoop } from '../support/eventLoopWatch.mjs';

const file = process.env.LOOP_WATCH_FILE;
let ticks = 0;
const write = () => {
  if (file) writeFileSync(file, JSON.stringify(watch.seen()));
};
const watch = watchEventLoop(() => {
  ticks += 1;
  if (ticks % 5 === 0) write();
});
process.on('exit', write);
