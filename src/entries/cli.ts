#!/usr/bin/env node
import { runCli } from '../tools/cli/runCli.js';

// A reader that closes the pipe early (`loopchart demo | head`) ends the command quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2));
