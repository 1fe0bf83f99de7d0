import type { Command } from 'commander';
import { DEFAULT_VIEWER_PORT, startViewer } from '../../viewer/index.js';
import { type CliOutput, cliOutput } from '../cliOutput.js';
import { integerFlag } from '../flags/integerFlag.js';

interface ViewFlags {
  port: number;
  host: string;
  db?: string;
}

/** `loopchart view`: serves the run viewer until Ctrl-C (SIGINT) or SIGTERM. */
export function register(program: Command): void {
  program
    .command('view')
    .description('serve the live run viewer (a page + a WebSocket loops report to) on 127.0.0.1')
    .option(
      '--port <n>',
      'port, 0–65535 (0 picks a free one)',
      integerFlag(0, 65535),
      DEFAULT_VIEWER_PORT,
    )
    .option(
      '--host <host>',
      'interface to bind; keep the loopback default unless you mean it',
      '127.0.0.1',
    )
    .option('--db <file>', 'a SQLite runs database: its loop health is served on /health')
    .action(async (flags: ViewFlags, command: Command) => {
      const { port } = flags;
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await serveViewer(
          { port, host: flags.host, ...(flags.db ? { db: flags.db } : {}) },
          cliOutput(command),
          stop.signal,
        );
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== 'EADDRINUSE' && code !== 'EADDRNOTAVAIL' && code !== 'EACCES') throw error;
        command.error(
          `view: cannot listen on ${flags.host}:${port} (${String(code)}); try --port 0`,
          {
            exitCode: 1,
            code: 'loopchart.view.listen',
          },
        );
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

/**
 * Serves the viewer until `signal` aborts, printing where to look and where loops report.
 * @example await serveViewer({ port: 0, host: '127.0.0.1' }, out, controller.signal);
 */
export async function serveViewer(
  { port, host, db }: { port: number; host: string; db?: string },
  out: CliOutput,
  signal: AbortSignal,
): Promise<void> {
  const health = db ? await openHealthStore(db) : undefined;
  const viewer = await startViewer({
    port,
    host,
    ...(health && db ? { healthStore: health, healthSource: db } : {}),
  });
  out.out(`loopchart viewer: ${out.c.bold(viewer.url)}`);
  if (health) out.out(`loop health of ${db}: ${viewer.url}health`);
  out.out(`loops report to ${viewer.inspectUrl}, e.g.`);
  out.out(`  const viewer = connectToViewer('${viewer.inspectUrl}'); // from 'loopchart/viewer'`);
  out.out('  await runLoop(config, input, { inspect: viewer.inspect }); await viewer.close();');
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    out.err(`warning: bound to ${host}: anyone who can reach it sees the runs' data`);
  }
  out.out('Ctrl-C stops it.');
  if (!signal.aborted) {
    await new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
  }
  await viewer.close();
  health?.close();
  out.out('viewer stopped');
}

async function openHealthStore(file: string) {
  // Loaded only with --db, so the viewer alone never loads the native module.
  const { SqliteCheckpointStore } = await import('../../sqlite/index.js');
  return new SqliteCheckpointStore(file, { readonly: true });
}
