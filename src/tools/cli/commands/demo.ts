import { type Command, Option } from 'commander';
import { DEFAULT_VIEWER_PORT } from '../../viewer/startViewer.js';
import { cliOutput } from '../cliOutput.js';
import { DEFAULT_DEMO_DIR, DemoError, runDemo } from '../demo/runDemo.js';

interface DemoFlags {
  dir: string;
  only?: string[];
  viewer?: string;
}

/** `loopchart demo`: the main job, the bundled example loops end to end. */
export function register(program: Command): void {
  program
    .command('demo')
    .description(
      'run the bundled example loops end to end: a live line per step, each outcome and its trace',
    )
    .option('--dir <path>', 'where the SQLite runs.db and the HTML reports go', DEFAULT_DEMO_DIR)
    .option('--only <names...>', 'run only these scenarios')
    .addOption(
      new Option(
        '--viewer [url]',
        'also show the runs live in a running viewer (loopchart view)',
      ).preset(`ws://127.0.0.1:${DEFAULT_VIEWER_PORT}`),
    )
    .action(async (options: DemoFlags, command: Command) => {
      const { failed } = await runDemo(cliOutput(command), options).catch((error: unknown) => {
        if (!(error instanceof DemoError)) throw error;
        return command.error(`demo: ${error.message}`, {
          exitCode: 2,
          code: 'loopchart.demo.options',
        });
      });
      if (failed.length > 0) {
        command.error(`demo: ${failed.join('; ')}`, { exitCode: 1, code: 'loopchart.demo.failed' });
      }
    });
}
