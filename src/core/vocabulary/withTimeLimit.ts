import { type Clock, monotonicClock } from './clock.js';

// `.then` on it queues a job behind those already queued, as queueMicrotask does, but lighter
const resolved = Promise.resolve();

/** How `withTimeLimit` bounds a call. */
export interface TimeLimit {
  ms: number;
  /** What it rejects with, and aborts the call's signal with, once `ms` have passed. */
  timeout: () => unknown;
  /** Aborting it aborts the call's signal and rejects at once, both with its reason. */
  signal?: AbortSignal | undefined;
  /** Whose timer counts `ms` (default the monotonic clock). */
  clock?: Clock | undefined;
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
  limit: TimeLimit,
): Promise<T> {
  return withLazySignal((signal) => start(signal()), limit);
}

/**
 * `withTimeLimit` whose call asks for its signal (`signal()`) only if it uses one: a step that
 * never reads `ctx.signal` costs no AbortController. Asked for after the limit stopped the call,
 * the signal comes already aborted with the same reason.
 */
export function withLazySignal<T>(
  start: (signal: () => AbortSignal) => T | PromiseLike<T>,
  { ms, timeout, signal: parent, clock = monotonicClock }: TimeLimit,
): Promise<T> {
  // one promise, settled once, by whichever comes first: the call, the timer or the parent
  return new Promise<T>((resolve, reject) => {
    let controller: AbortController | undefined;
    let stopped = false;
    let stopReason: unknown;
    let settled = false;
    let armed = false;
    let cancel = () => {};
    const settle = () => {
      settled = true;
      if (!armed) return;
      cancel();
      parent?.removeEventListener('abort', onAbort);
    };
    const stop = (reason: unknown) => {
      if (settled) return;
      settle();
      stopped = true;
      stopReason = reason;
      controller?.abort(reason);
      reject(reason);
    };
    const onAbort = () => stop(parent?.reason);
    // the timer and the parent's listener, once something can notice them
    const arm = () => {
      if (armed || settled) return;
      armed = true;
      cancel = clock.after(ms, () => stop(timeout()));
      if (parent?.aborted) onAbort();
      else parent?.addEventListener('abort', onAbort, { once: true });
    };
    const signal = () => {
      if (controller === undefined) {
        controller = new AbortController();
        if (stopped) controller.abort(stopReason);
        else arm();
      }
      return controller.signal;
    };
    if (parent?.aborted) onAbort();
    // called synchronously: a caller that counts the call as started knows it has really run
    let work: T | PromiseLike<T>;
    try {
      work = start(signal);
    } catch (error) {
      if (!settled) {
        settle();
        reject(error);
      }
      return;
    }
    Promise.resolve(work).then(
      (value) => {
        if (settled) return;
        if (parent?.aborted) return stop(parent.reason); // the abort came first, unheard
        settle();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        if (parent?.aborted) return stop(parent.reason);
        settle();
        reject(error);
      },
    );
    // A call settled by now needs neither the timer (it fires in a later task) nor the listener
    // (it never read its signal, and an abort meanwhile is seen above): most steps are such calls.
    resolved.then(arm);
  });
}
