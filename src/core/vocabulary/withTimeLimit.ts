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
  limit: TimeLimit,
): Promise<T> {
  // one promise, settled once, by whichever comes first: the call, the timer or the parent
  const call = new LimitedCall<T>(limit);
  const parent = limit.signal;
  if (parent?.aborted) call.stop(parent.reason);
  // called synchronously: a caller that counts the call as started knows it has really run
  let work: T | PromiseLike<T>;
  try {
    work = start(() => call.signal());
  } catch (error) {
    call.fail(error);
    return call.promise;
  }
  Promise.resolve(work).then(
    (value) => call.end(value, true),
    (error: unknown) => call.end(error, false),
  );
  // A call settled by now needs neither the timer (it fires in a later task) nor the listener
  // (it never read its signal, and an abort meanwhile is seen when it settles): most steps are such calls.
  resolved.then(() => call.arm());
  return call.promise;
}

// One object per call instead of a closure per state change: a call in flight holds little.
class LimitedCall<T> {
  readonly promise: Promise<T>;
  private resolve!: (value: T) => void;
  private reject!: (reason: unknown) => void;
  private controller: AbortController | undefined = undefined;
  private stopped = false;
  private stopReason: unknown = undefined;
  private settled = false;
  private armed = false;
  private cancel: () => void = noop;
  private onAbort: () => void = noop;

  constructor(private readonly limit: TimeLimit) {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopReason);
      else this.arm();
    }
    return this.controller.signal;
  }

  /** The timer and the parent's listener, once something can notice them. */
  arm(): void {
    if (this.armed || this.settled) return;
    this.armed = true;
    const { ms, timeout, signal: parent, clock = monotonicClock } = this.limit;
    this.cancel = clock.after(ms, () => this.stop(timeout()));
    if (parent?.aborted) this.stop(parent.reason);
    else if (parent) {
      this.onAbort = () => this.stop(parent.reason);
      parent.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  stop(reason: unknown): void {
    if (this.settled) return;
    this.settle();
    this.stopped = true;
    this.stopReason = reason;
    this.controller?.abort(reason);
    this.reject(reason);
  }

  /** The call threw synchronously. */
  fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.reject(error);
  }

  /** The call settled: with its value (`ok`) or its error. */
  end(outcome: unknown, ok: boolean): void {
    if (this.settled) return;
    const parent = this.limit.signal;
    if (parent?.aborted)
      this.stop(parent.reason); // the abort came first, unheard
    else {
      this.settle();
      if (ok) this.resolve(outcome as T);
      else this.reject(outcome);
    }
  }

  private settle(): void {
    this.settled = true;
    if (!this.armed) return;
    this.cancel();
    this.limit.signal?.removeEventListener('abort', this.onAbort);
  }
}

const noop = () => {};
