import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../viewerChild.mjs', import.meta.url));

/** What the viewer child reports of its store. */
export interface ViewerStats {
  runs: number;
  ids: string[];
  /** Each run's state as the page's list shows it (outcome status, else actor status). */
  states: Record<string, string>;
  eventCounts: Record<string, number>;
  events: number;
  dropped: number;
  /** Messages the viewer sent to watching pages. */
  sentToWatchers: number;
  polluted: boolean;
}

/** The viewer's settled heap, and its memory outside the heap (socket buffers). */
export interface ViewerMemory {
  heap: number;
  external: number;
}

/** The run viewer in its own process (`viewerChild.mjs`), so its heap is measured alone. */
export interface ViewerProcess {
  url: string;
  inspectUrl: string;
  memory(): Promise<ViewerMemory>;
  stats(): Promise<ViewerStats>;
  /** Closes the viewer; resolves with what was still active and how the process ended. */
  close(exitWithinMs: number): Promise<{ activeResources: string[]; exitedByItself: boolean }>;
  stderr(): string;
}

/** Starts `viewerChild.mjs` with --expose-gc on the compiled library in `libraryDir`. */
export async function startViewerProcess(libraryDir: string): Promise<ViewerProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--expose-gc', script, libraryDir],
    { stdio: 'pipe' },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  type Waiter = { resolve: (line: Record<string, unknown>) => void; reject: (e: Error) => void };
  const waiting: Waiter[] = [];
  lines.on('line', (line) => waiting.shift()?.resolve(JSON.parse(line)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      for (const waiter of waiting.splice(0)) waiter.reject(new Error(`viewer exited: ${stderr}`));
      resolve();
    }),
  );
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => waiting.push({ resolve, reject }));
  const ask = (command: string) => {
    const answer = next();
    child.stdin.write(`${command}\n`);
    return answer;
  };
  const { url, inspectUrl } = (await next()) as { url: string; inspectUrl: string };
  return {
    url,
    inspectUrl,
    memory: async () => (await ask('heap')) as unknown as ViewerMemory,
    stats: async () => (await ask('stats')) as unknown as ViewerStats,
    async close(exitWithinMs) {
      const { activeResources } = (await ask('close')) as { activeResources: string[] };
      child.stdin.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const exitedByItself = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), exitWithinMs);
        }),
      ]);
      clearTimeout(timer);
      if (!exitedByItself) child.kill('SIGKILL');
      return { activeResources, exitedByItself };
    },
    stderr: () => stderr,
  };
}
