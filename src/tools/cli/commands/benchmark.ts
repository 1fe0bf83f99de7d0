import { type Command, Option } from 'commander';
import { createLoopMachine } from '../../../core/chart/compileLoop.js';
import { loopGuards } from '../../../core/chart/loopGuards.js';
import { type BuildMachine, buildLoopMachine } from '../battery/batteryCheck.js';
import { runBattery } from '../battery/runBattery.js';
import { type CliOutput, cliOutput } from '../cliOutput.js';
import { formatMs } from '../format.js';

/** `loopchart benchmark`: the behaviour battery, one line per check. */
export function register(program: Command): void {
  program
    .command('benchmark')
    .description(
      "check the behaviour battery: the decision table, the loop's bounds, the closed-loop cases; exits 1 naming each failed check",
    )
    .addOption(
      new Option(
        '--break-guard <name>',
        'replace a guard of the loop machine with one that is always false, to see the battery catch it',
      ).choices(Object.keys(loopGuards)),
    )
    .action(async (options: { breakGuard?: string }, command: Command) => {
      const build = options.breakGuard ? brokenGuard(options.breakGuard) : buildLoopMachine;
      const failed = await benchmark(cliOutput(command), build);
      if (failed.length > 0) {
        command.error(`benchmark: ${failed.length} failed: ${failed.join('; ')}`, {
          exitCode: 1,
          code: 'loopchart.benchmark.failed',
        });
      }
    });
}

/**
 * Prints one line per check and resolves to the names of the failed checks.
 * @example const failed = await benchmark(output, (config) => createLoopMachine(config).provide({ guards }));
 */
export async function benchmark(
  output: CliOutput,
  build: BuildMachine = buildLoopMachine,
): Promise<string[]> {
  const { c } = output;
  output.out(c.bold('loopchart benchmark — the behaviour battery'));
  const results = await runBattery({
    build,
    onResult: ({ name, passed, detail, durationMs }) => {
      const mark = passed ? c.green('✓') : c.red('✗');
      const note = passed ? c.dim(detail) : c.red(detail);
      output.out(`${mark} ${name.padEnd(56)} ${note} ${c.dim(`(${formatMs(durationMs)})`)}`);
    },
  });
  const failed = results.filter((result) => !result.passed).map((result) => result.name);
  const total = results.reduce((sum, result) => sum + result.durationMs, 0);
  if (failed.length === 0) {
    output.out(c.green(`all ${results.length} checks passed in ${formatMs(total)}`));
  } else {
    output.out(c.red(`${failed.length} of ${results.length} checks failed`));
  }
  return failed;
}

/** Machines whose guard `name` always answers false: a deliberately broken decision. */
export function brokenGuard(name: string): BuildMachine {
  return (config) => createLoopMachine(config).provide({ guards: { [name]: () => false } });
}
