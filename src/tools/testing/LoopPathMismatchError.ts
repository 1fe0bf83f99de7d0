const BRAND = Symbol.for('loopchart.LoopPathMismatchError');

/** Thrown by `path.replay()` when the real run leaves the enumerated path or breaks a bound. */
export class LoopPathMismatchError extends Error {
  override readonly name = 'LoopPathMismatchError';
  /** The path's description. */
  readonly path: string;
  /** The index of the path step where the run disagreed (-1 for the run as a whole). */
  readonly step: number;
  readonly [BRAND] = true;

  constructor(path: string, step: number, problem: string) {
    super(`${problem}\n  path: ${path}${step >= 0 ? `\n  at step ${step}` : ''}`);
    this.path = path;
    this.step = step;
  }
}

/** True for a `LoopPathMismatchError`, even one thrown by another copy of loopchart. */
export function isLoopPathMismatchError(error: unknown): error is LoopPathMismatchError {
  return typeof error === 'object' && error !== null && BRAND in error;
}
