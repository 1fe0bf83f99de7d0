import type { ValidationResult } from 'loopchart';

/** A correctable rejection with the given message. */
export const correctable = (message = 'fix it'): ValidationResult => ({
  valid: false,
  error: { severity: 'correctable', message },
});

/** A fundamental rejection with the given message. */
export const fundamental = (message = 'cannot work'): ValidationResult => ({
  valid: false,
  error: { severity: 'fundamental', message },
});

export const valid: ValidationResult = { valid: true };

/** Counts calls of a step and returns whatever `answer(n)` gives for call n (1-based). */
export function counted<A extends unknown[], R>(answer: (n: number, ...args: A) => R) {
  const fn = (...args: A): R => {
    fn.calls += 1;
    fn.args.push(args);
    return answer(fn.calls, ...args);
  };
  fn.calls = 0;
  fn.args = [] as A[];
  return fn;
}

/** A promise with its resolvers (Node 20 has no `Promise.withResolvers`). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
