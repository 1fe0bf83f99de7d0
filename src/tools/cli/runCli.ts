import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { isCliFault } from './cliFault.js';
import { attachIo, type CliIo, processIo } from './cliOutput.js';
import * as commands from './commands/index.js';

const ABOUT =
  'Self-correcting loops (attempt → validate → refine → try again, with a fallback and honest stops) as XState v5 statecharts whose termination is guaranteed and visible.';

const FIRST = ['registerDemo', 'registerBenchmark'];

/**
 * The `loopchart` program with every command of tools/cli/commands registered, writing to `io`.
 * @example await createProgram().parseAsync(['demo'], { from: 'user' });
 */
export function createProgram(io: CliIo = processIo()): Command {
  const program = new Command('loopchart')
    .description(ABOUT)
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    .option('--debug', 'print the stack of an unexpected error')
    .showSuggestionAfterError()
    .exitOverride();
  attachIo(program, io);
  program.addHelpText(
    'after',
    `
Start here:
  loopchart demo          run the bundled example loops end to end (SQLite store, HTML reports)
  loopchart benchmark     check the decision table and the loop's bounds
  loopchart <command> --help   every flag of a command

Errors are one line; --debug (before the command) adds the stack.`,
  );
  const registrations = Object.entries(commands)
    .filter(([name, register]) => name.startsWith('register') && typeof register === 'function')
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  for (const [, register] of registrations) (register as (p: Command) => void)(program);
  return program;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit code.
 * @example process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = createProgram(io);
  let command = 'loopchart';
  program.hook('preAction', (_, action) => {
    command = topCommand(action);
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return USAGE_ERRORS.has(error.code) ? 2 : error.exitCode;
    const debug = program.opts<{ debug?: boolean }>().debug === true;
    if (isCliFault(error) && !debug) {
      const line = `${command}: ${error.message}`;
      io.stderr(`${io.color ? pc.red(line) : line}\n`);
      return error.exitCode;
    }
    io.stderr(`loopchart: ${unexpected(error, debug)}\n`);
    return isCliFault(error) ? error.exitCode : 1;
  }
}

/** The command under the program an action belongs to: `runs` for `runs list`. */
function topCommand(action: Command): string {
  let current = action;
  while (current.parent?.parent) current = current.parent;
  return current.name();
}

/** Commander's codes for a command line that is wrong: exit 2, like other Unix tools. */
const USAGE_ERRORS = new Set([
  'commander.invalidArgument',
  'commander.unknownOption',
  'commander.unknownCommand',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.conflictingOption',
  'commander.excessArguments',
]);

function unexpected(error: unknown, debug: boolean): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split('\n')[0]} (run with --debug for the stack)`;
}

function rank(name: string): number {
  const index = FIRST.indexOf(name);
  return index < 0 ? FIRST.length : index;
}

function version(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  );
  return (pkg as { version?: string }).version ?? '0.0.0';
}
