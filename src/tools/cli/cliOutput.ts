import type { Command } from 'commander';
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Where the CLI writes, and whether it may colour. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
}

/** What a command writes with: whole lines, coloured only when `color` allows. */
export interface CliOutput {
  out(line?: string): void;
  err(line?: string): void;
  c: Colors;
}

/** Colour only on a terminal, never with NO_COLOR, always with FORCE_COLOR (https://no-color.org). */
export function wantsColor(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return Boolean(isTTY) && env.TERM !== 'dumb';
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: wantsColor(process.env, process.stdout.isTTY),
  };
}

const colorsOf = new WeakMap<Command, Colors>();

/** Makes `io` the output of `program` and of every command registered on it afterwards. */
export function attachIo(program: Command, io: CliIo): void {
  colorsOf.set(program, pc.createColors(io.color));
  program.configureOutput({
    writeOut: io.stdout,
    writeErr: io.stderr,
    outputError: (text, write) => write(io.color ? pc.red(text) : text),
  });
}

/** The output of the program a command belongs to. */
export function cliOutput(command: Command): CliOutput {
  let root = command;
  while (root.parent) root = root.parent;
  const { writeOut = write(process.stdout), writeErr = write(process.stderr) } =
    command.configureOutput();
  return {
    out: (line = '') => writeOut(`${line}\n`),
    err: (line = '') => writeErr(`${line}\n`),
    c: colorsOf.get(root) ?? pc.createColors(false),
  };
}

const write = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(text);
};
