import type { z } from 'zod';
import { describeValue } from './describeValue.js';
import { LoopConfigError } from './LoopConfigError.js';

/**
 * Turns a failed zod parse into a `LoopConfigError` whose message names every field; an unknown
 * key is named too, with the closest known one when it looks like a typo.
 */
export function configErrorFrom(
  subject: string,
  error: z.ZodError,
  knownKeys: readonly string[] = [],
): LoopConfigError {
  const lines = error.issues.flatMap((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length > 0 ? `${field}.` : '';
      return issue.keys.map(
        (key) => `  - ${prefix}${key}: is not an option${suggest(key, knownKeys)}`,
      );
    }
    const received = 'input' in issue ? ` (received ${describeValue(issue.input)})` : '';
    return [`  - ${field}: ${issue.message}${received}`];
  });
  return new LoopConfigError(`loopchart: invalid ${subject}\n${lines.join('\n')}`, error.issues);
}

function suggest(key: string, knownKeys: readonly string[]): string {
  const best = knownKeys
    .map((known) => ({ known, distance: editDistance(key.toLowerCase(), known.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const close = best && best.distance <= Math.max(2, Math.floor(best.known.length / 3));
  return close ? ` (did you mean ${best.known}?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
