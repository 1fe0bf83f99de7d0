/** How `withTimeLimit` bounds a call. */
export interface TimeLimit {
  ms: number;
  /** What it rejects with, and aborts the call's signal with, once `ms` have passed. */
  timeout: () => unknown;
  /** Aborting it aborts the call's signal and rejects at once, both with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Calls `start` at once with a signal of its own and settles as it does, unless `ms` pass (or
 * `signal` aborts) first: then that signal is aborted and the promise rejects, even when the call
 * ignores its signal. The timer and the listener go when it settles, so a long limit never
 * outlives the call.
 * @example await withTimeLimit((signal) => fetch(url, { signal }), { ms: 5000, timeout: () => new Error('slow') });
 */
export function withTimeLimit<T>(
  start: (signal: AbortSignal) => T | PromiseLike<T>,
  { ms, timeout, signal: parent }: TimeLimit,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const stopped = new Promise<never>((_, reject) => {
    const stop = (reason: unknown) => {
      controller.abort(reason);
      reject(reason);
    };
    timer = setTimeout(() => stop(timeout()), ms);
    onAbort = () => stop(parent?.reason);
    if (parent?.aborted) onAbort();
    else parent?.addEventListener('abort', onAbort, { once: true });
  });
  // called synchronously: a caller that counts the call as started knows it has really run
  const work = new Promise<T>((resolve) => resolve(start(controller.signal)));
  work.catch(() => {});
  return Promise.race([work, stopped]).finally(() => {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onAbort);
  });
}
