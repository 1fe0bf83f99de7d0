/** Spawns and drives the DBOS test processes of test/dbos/dbosChild.mjs. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One line a test process appended to its journal. */
export interface JournalEntry {
  /** `launching`: the process is about to launch DBOS (and recover its own runs); no run fields. */
  type: 'effect' | 'done' | 'launching';
  loop: string;
  runId: string;
  attempt: number;
  executor: string;
  at: number;
}

/** A running DBOS test process and the commands it takes. */
export interface DbosProcess {
  executor: string;
  child: ChildProcess;
  command<T = Record<string, unknown>>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  kill(): Promise<void>;
  /** SIGSTOPs the process and resolves once it is stopped: it writes nothing until `thaw()`. */
  freeze(): Promise<void>;
  /** SIGCONTs a frozen process. */
  thaw(): void;
  stop(): Promise<void>;
  errors(): string;
}

const childScript = fileURLToPath(new URL('./dbosChild.mjs', import.meta.url));

export function journalPath(base: string, executor: string): string {
  return join(base, `${executor}.jsonl`);
}

/** Every journal line of the given executors, in no particular order across them. */
export function readJournals(base: string, executors: readonly string[]): JournalEntry[] {
  return executors.flatMap((executor) => {
    const file = journalPath(base, executor);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry);
  });
}

/** Resolves once the kernel reports the process stopped (state T in /proc; Linux). */
async function stopped(pid: number): Promise<void> {
  const stat = `/proc/${pid}/stat`;
  for (;;) {
    // the state is the first field after the parenthesised command name
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0];
    if (state === 'T' || state === 't') return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Starts a test process and resolves once DBOS has launched in it (and recovered its own runs). */
export async function startDbosProcess(
  options: { lib: string; systemDb: string; base: string; executor: string },
  env: Record<string, string> = {},
): Promise<DbosProcess> {
  const { executor } = options;
  const child = spawn(process.execPath, [childScript], {
    env: {
      ...process.env,
      ...env,
      LIB: options.lib,
      SYSTEM_DB: options.systemDb,
      EXECUTOR_ID: executor,
      JOURNAL: journalPath(options.base, executor),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  let next = 0;
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let ready: () => void = () => {};
  const launched = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) =>
      reject(new Error(`${executor} exited (${code}) before it was ready: ${err}`)),
    );
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('@@')) continue;
      const message = JSON.parse(line.slice(2)) as Record<string, unknown>;
      if (message.ready) ready();
      else waiting.get(message.id as number)?.(message);
    }
  });
  await launched;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    executor,
    child,
    command: (cmd, args = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, (message) => {
          waiting.delete(id);
          if (message.error)
            reject(
              Object.assign(
                new Error(String((message.error as { message: string }).message)),
                message.error,
              ),
            );
          else resolve(message as never);
        });
        child.stdin?.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
      }),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    freeze: async () => {
      child.kill('SIGSTOP');
      await stopped(child.pid ?? 0);
    },
    thaw: () => {
      child.kill('SIGCONT');
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    errors: () => err,
  };
}
