import type { CliIo } from './cliOutput.js';

/**
 * A `CliIo` that keeps what the CLI writes, for running commands in-process (tests, embedding).
 * @example const capture = captureIo(); await runCli(['benchmark'], capture.io); capture.stdout();
 */
export function captureIo(color = false) {
  const written = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (text) => {
      written.stdout += text;
    },
    stderr: (text) => {
      written.stderr += text;
    },
    color,
  };
  return { io, stdout: () => written.stdout, stderr: () => written.stderr };
}
