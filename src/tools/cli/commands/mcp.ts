import type { Command } from 'commander';
import { cliOutput } from '../cliOutput.js';
import { type RunApiFlags, runApiOptions, runApiSetup } from '../runApiSetup.js';

interface McpFlags extends RunApiFlags {
  answers?: boolean;
}

/** `loopchart mcp`: the stored runs over the Model Context Protocol on stdin/stdout. */
export function register(program: Command): void {
  const mcp = program
    .command('mcp')
    .description(
      'serve stored runs to an agent over MCP on stdio (tools list_runs, show_run, loop_health, answer_run), docs/api.md',
    )
    .option(
      '--answers',
      'offer answer_run, for the loops of --loops (the store is opened writable)',
    );
  runApiOptions(mcp).action(async (flags: McpFlags, command: Command) => {
    const out = cliOutput(command);
    const usage: (message: string) => never = (message) => {
      command.error(`mcp: ${message}`, { exitCode: 2, code: 'loopchart.mcp.usage' });
      throw new Error(message);
    };
    if (flags.answers && !flags.loops)
      usage('--answers needs --loops <module>: the loops it may drive');
    const { store, loops, pipelines, agents } = await runApiSetup(
      flags,
      Boolean(flags.answers),
      usage,
    );
    // Loaded only here: the SDK is an optional peer, needed by this command alone.
    const [{ createRunsMcpServer }, { StdioLineTransport }] = await Promise.all([
      import('../../mcp/createRunsMcpServer.js'),
      import('../../mcp/StdioLineTransport.js'),
    ]);
    const server = createRunsMcpServer({
      store,
      loops,
      pipelines,
      agents,
      answers: Boolean(flags.answers),
      onRunError: (runId, error) =>
        out.err(
          `run ${runId} failed after an answer: ${error instanceof Error ? error.message : String(error)}`,
        ),
    });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = () => resolve();
    });
    // A bad line (over 10 MiB, not JSON) is answered with a JSON-RPC error and told here.
    server.server.onerror = (error) => out.err(`mcp: ${error.message}`.slice(0, 500));
    const stop = () => void server.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      // It closes once stdin ends and every request read was answered.
      await server.connect(new StdioLineTransport(process.stdin, process.stdout));
      await closed;
      await server.api.drain();
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await store.close?.();
    }
  });
}
