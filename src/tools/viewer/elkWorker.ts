import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How long one ELK run may take and how much heap its thread may use. */
export interface ElkWorkerLimits {
  timeMs: number;
  maxMemoryMb: number;
  /** Layouts waiting beyond this are refused at once. */
  maxQueued: number;
}

/** ELK on a thread of its own. */
export interface ElkWorker {
  /** ELK's layout of `graph`; rejects when it takes too long, runs out of memory or fails. */
  layout(graph: object): Promise<object>;
  /** Stops the thread; pending and later layouts reject. */
  close(): Promise<void>;
}

// Plain CommonJS, run with `eval`: the thread needs only ELK, so it runs the same from the
// TypeScript sources, the build and a bundle.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const ELK = require(workerData.elkPath);
const elk = new ELK();
parentPort.on('message', (graph) => {
  elk.layout(graph).then(
    (laidOut) => parentPort.postMessage({ laidOut }),
    (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
  );
});
`;

/**
 * Runs ELK (the viewer's chart layout engine) on a worker thread, one graph at a time. A layout
 * over `timeMs` or `maxMemoryMb` terminates the thread (a new one starts for the next layout),
 * so ELK can never hold up the thread that serves requests, nor its memory. `undefined` when
 * elkjs is not installed (`layoutChart` then says how to install it).
 * @example const elk = startElkWorker({ timeMs: 5000, maxMemoryMb: 512, maxQueued: 32 });
 *          const layout = await layoutChart(graph, elk?.layout);
 */
export function startElkWorker(limits: ElkWorkerLimits): ElkWorker | undefined {
  let elkPath: string;
  try {
    elkPath = createRequire(import.meta.url).resolve('elkjs/lib/elk.bundled.js');
  } catch {
    return undefined;
  }
  let worker: Worker | undefined;
  let closed = false;
  let queued = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const spawn = () => {
    const thread = new Worker(SCRIPT, {
      eval: true,
      workerData: { elkPath },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    thread.unref();
    return thread;
  };
  const run = (graph: object) =>
    new Promise<object>((resolve, reject) => {
      if (closed) return reject(new Error('the viewer is closed'));
      worker ??= spawn();
      const thread = worker;
      const settle = (result: { laidOut?: object; error?: unknown }, stop: boolean) => {
        clearTimeout(timer);
        thread.off('message', onMessage).off('error', onFailure).off('exit', onExit);
        if (stop) {
          if (worker === thread) worker = undefined;
          void thread.terminate();
        }
        if (result.laidOut) resolve(result.laidOut);
        else reject(result.error instanceof Error ? result.error : new Error(String(result.error)));
      };
      const onMessage = (message: { laidOut?: object; error?: string }) => settle(message, false);
      const onFailure = (error: unknown) => settle({ error }, true);
      const onExit = (code: number) =>
        settle({ error: new Error(`the layout thread stopped (exit code ${code})`) }, true);
      const timer = setTimeout(
        () => settle({ error: new Error(`the layout took longer than ${limits.timeMs} ms`) }, true),
        limits.timeMs,
      );
      timer.unref();
      thread.on('message', onMessage).once('error', onFailure).once('exit', onExit);
      try {
        thread.postMessage(graph);
      } catch (error) {
        settle({ error }, false);
      }
    });
  return {
    layout: (graph) => {
      if (queued >= limits.maxQueued) {
        return Promise.reject(new Error(`${queued} charts are already waiting to be laid out`));
      }
      queued += 1;
      const next = queue.then(() => run(graph));
      const done = () => {
        queued -= 1;
      };
      queue = next.then(done, done);
      return next;
    },
    close: async () => {
      closed = true;
      const thread = worker;
      worker = undefined;
      // unref-ed, the thread's exit might not be heard before this process runs out of work
      thread?.ref();
      await thread?.terminate();
    },
  };
}
