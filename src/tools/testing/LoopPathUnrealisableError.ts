const BRAND = Symbol.for('loopchart.LoopPathUnrealisableError');

/**
 * Thrown by `path.replay()` when the path needs an output your steps cannot give (a deterministic
 * validator asked for a new verdict on a draft it already judged, say): not a bug of yours, and
 * not a test of anything. `path.test()` reports it as the verdict `unrealisable`.
 */
export class LoopPathUnrealisableError extends Error {
  override readonly name = 'LoopPathUnrealisableError';
  /** The path's description. */
  readonly path: string;
  /** The index of the path step that cannot happen (-1 for the path as a whole). */
  readonly step: number;
  /** Why: the output the path needs and what your steps give instead. */
  readonly reason: string;
  readonly [BRAND] = true;

  constructor(path: string, step: number, reason: string) {
    super(`unrealisable: ${reason}\n  path: ${path}${step >= 0 ? `\n  at step ${step}` : ''}`);
    this.path = path;
    this.step = step;
    this.reason = reason;
  }
}

/** True for a `LoopPathUnrealisableError`, even one thrown by another copy of loopchart. */
export function isLoopPathUnrealisableError(error: unknown): error is LoopPathUnrealisableError {
  return typeof error === 'object' && error !== null && BRAND in error;
}
