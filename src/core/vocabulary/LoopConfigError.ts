import type { z } from 'zod';

const BRAND = Symbol.for('loopchart.LoopConfigError');

/** A configuration problem found at creation time; `issues` are zod's, `message` names each field. */
export class LoopConfigError extends Error {
  override readonly name = 'LoopConfigError';
  readonly issues: readonly z.core.$ZodIssue[];
  readonly [BRAND] = true;

  constructor(message: string, issues: readonly z.core.$ZodIssue[] = []) {
    super(message);
    this.issues = issues;
  }
}

/**
 * True for a `LoopConfigError`, even one thrown by another copy of loopchart.
 * @example if (isLoopConfigError(e)) console.error(e.message);
 */
export function isLoopConfigError(error: unknown): error is LoopConfigError {
  return typeof error === 'object' && error !== null && BRAND in error;
}
