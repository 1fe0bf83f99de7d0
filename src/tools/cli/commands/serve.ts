import type { Command } from 'commander';
import { DEFAULT_SERVE_PORT, serveRuns } from '../../serve/serveRuns.js';
import { listenFault } from '../cliFault.js';
import { cliOutput } from '../cliOutput.js';
import { type RunApiFlags, runApiOptions, runApiSetup } from '../runApiSetup.js';

/** The environment variable that holds the answer token (never a flag: argv shows in `ps`). */
export const TOKEN_ENV = 'LOOPCHART_API_TOKEN';

interface ServeFlags extends RunApiFlags {
  port: string;
  host: string;
  origin: string[];
  log?: boolean;
}

/** `loopchart serve`: the stored runs as a JSON API over HTTP, until Ctrl-C or SIGTERM. */
export function register(program: Command): void {
  const serve = program
    .command('serve')
    .description(
      `serve stored runs as JSON over HTTP (list, detail, health; answers with ${TOKEN_ENV} set), docs/api.md`,
    )
    .option('--port <n>', 'port (0 picks a free one)', String(DEFAULT_SERVE_PORT))
    .option(
      '--host <host>',
      'interface to bind; beyond loopback every request needs the token',
      '127.0.0.1',
    )
    .option(
      '--origin <origin>',
      'a browser origin allowed to post answers (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--log', 'print one line per request (method, path, status)');
  runApiOptions(serve).action(async (flags: ServeFlags, command: Command) => {
    const out = cliOutput(command);
    const usage: (message: string) => never = (message) => {
      command.error(`serve: ${message}`, { exitCode: 2, code: 'loopchart.serve.usage' });
      throw new Error(message);
    };
    const port = Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      usage(`--port must be an integer from 0 to 65535, got '${flags.port}'`);
    }
    const token = process.env[TOKEN_ENV] || undefined;
    const { store, loops, pipelines, agents } = await runApiSetup(
      flags,
      token !== undefined,
      usage,
    );
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const server = await serveRuns({
        store,
        loops,
        pipelines,
        agents,
        port,
        host: flags.host,
        allowedOrigins: flags.origin,
        ...(token === undefined ? {} : { token }),
        log: (line) => {
          if (flags.log || line.startsWith('run ')) out.err(line);
        },
      }).catch((error: unknown) => {
        if (error instanceof Error && error.name === 'LoopConfigError') usage(error.message);
        throw listenFault(error, flags.host, port) ?? error;
      });
      out.out(
        `loopchart run API: ${out.c.bold(server.url)}api/runs (schema: ${server.url}api/openapi.json)`,
      );
      const ids = [...Object.keys(loops), ...Object.keys(pipelines), ...Object.keys(agents)];
      out.out(
        token === undefined
          ? `read-only: set ${TOKEN_ENV} to answer paused runs`
          : `answers enabled with the token from ${TOKEN_ENV}, for ${ids.length ? ids.join(', ') : 'no loops (pass --loops)'}`,
      );
      out.out('Ctrl-C stops it.');
      if (!stop.signal.aborted) {
        await new Promise<void>((resolve) =>
          stop.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      await server.close();
      out.out('run API stopped');
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await store.close?.();
    }
  });
}
