import type { Command } from 'commander';
import type { CheckpointStore } from '../../../stores/kit/CheckpointStore.js';
import { DEFAULT_VIEWER_PORT, startViewer } from '../../viewer/startViewer.js';
import { CliFault, listenFault } from '../cliFault.js';
import { type CliOutput, cliOutput } from '../cliOutput.js';
import { integerFlag } from '../flags/integerFlag.js';
import {
  openRunStore,
  type RunStoreFlags,
  runStoreName,
  runStoreOptions,
} from '../openRunStore.js';

interface ViewFlags extends Partial<RunStoreFlags> {
  port: number;
  host: string;
}

/** `loopchart view`: serves the run viewer until Ctrl-C (SIGINT) or SIGTERM. */
export function register(program: Command): void {
  const view = program
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
    );
  runStoreOptions(view, {
    optional: true,
    description:
      'the runs whose loop health is served on /health: a SQLite file, or a postgres:// URL',
  }).action(async (flags: ViewFlags, command: Command) => {
    const { port } = flags;
    if (!flags.db && flags.schema !== undefined) {
      throw new CliFault('usage', '--schema applies to a postgres:// --db only');
    }
    const health = flags.db
      ? await openRunStore(flags.db, { schema: flags.schema, write: false })
      : undefined;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const store = health && flags.db ? { store: health, source: runStoreName(flags.db) } : {};
      await serveViewer({ port, host: flags.host, ...store }, cliOutput(command), stop.signal);
    } catch (error) {
      throw listenFault(error, flags.host, port) ?? error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await health?.close?.();
    }
  });
}

/**
 * Serves the viewer until `signal` aborts, printing where to look and where loops report.
 * @example await serveViewer({ port: 0, host: '127.0.0.1' }, out, controller.signal);
 */
export async function serveViewer(
  {
    port,
    host,
    store,
    source,
  }: { port: number; host: string; store?: CheckpointStore; source?: string },
  out: CliOutput,
  signal: AbortSignal,
): Promise<void> {
  const viewer = await startViewer({
    port,
    host,
    onError: (error) =>
      out.err(
        `view: request failed: ${error instanceof Error ? error.message : String(error)}`.slice(
          0,
          500,
        ),
      ),
    ...(store ? { healthStore: store, healthSource: source ?? 'the store' } : {}),
  });
  out.out(`loopchart viewer: ${out.c.bold(viewer.url)}`);
  if (store) out.out(`loop health of ${source ?? 'the store'}: ${viewer.url}health`);
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
  out.out('viewer stopped');
}
