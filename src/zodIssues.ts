import type { z } from 'zod';
import { describeValue } from './describeValue.js';
import { LoopConfigError } from './LoopConfigError.js';

/** Turns a failed zod parse into a `LoopConfigError` whose message names every field. */
export function configErrorFrom(subject: string, error: z.ZodError): LoopConfigError {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    const received = 'input' in issue ? ` (received ${describeValue(issue.input)})` : '';
    return `  - ${field}: ${issue.message}${received}`;
  });
  return new LoopConfigError(`loopchart: invalid ${subject}\n${lines.join('\n')}`, error.issues);
}
