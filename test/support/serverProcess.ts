import { spawn } from 'node:child_process';

/** A server of this checkout's CLI running in a child process, so its death is observable. */
export interface ServerProcess {
  /** e.g. `http://127.0.0.1:43121/` */
  url: string;
  port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** The exit code once it exited, `null` for a signal; `undefined` while it runs. */
  exitCode(): number | null | undefined;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  /** The child's IPC channel, when started with `ipc`. */
  send?: (message: unknown) => void;
  onMessage?: (listener: (message: unknown) => void) => void;
}

/**
 * Starts `node [nodeArgs] <cli> <args>` and resolves once it printed its URL; rejects with its
 * output if it exits first.
 * @example const view = await startServerProcess(cli.main, ['view', '--port', '0']);
 */
export function startServerProcess(
  cli: string,
  args: string[],
  options: { env?: Record<string, string>; nodeArgs?: string[]; ipc?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), cli, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  let text = '';
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (exit) => {
      code = exit;
      resolve(exit);
    }),
  );
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const found = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (!found?.[1]) return;
      resolve({
        url: found[0],
        port: Number(found[1]),
        output: () => text,
        exitCode: () => code,
        stop: async () => {
          if (code === undefined) child.kill('SIGTERM');
          return exited;
        },
        ...(options.ipc
          ? {
              send: (message: unknown) => child.send(message as never),
              onMessage: (listener: (message: unknown) => void) => child.on('message', listener),
            }
          : {}),
      });
    });
    void exited.then((exit) => reject(new Error(`${args[0]} exited ${exit}: ${text}`)));
  });
}
