import { isLoopPathMismatchError, type LoopPathMismatchError } from './LoopPathMismatchError.js';
import { isLoopPathUnrealisableError } from './LoopPathUnrealisableError.js';
import type { LoopReplay } from './replayLoopPath.js';

/**
 * What testing one path found: it `passed`; it `failed` (your step or an assertion broke; the
 * error names the path, the step and its input); or it is `unrealisable` (it needs an output your
 * steps cannot give, or a sample you did not give: `reason` says which).
 */
export type LoopPathVerdict<C = unknown> =
  | { verdict: 'passed'; replay: LoopReplay<C> }
  | { verdict: 'failed'; error: LoopPathMismatchError; reproduction: string }
  | { verdict: 'unrealisable'; reason: string };

/** The verdict of a replay: its result, or what it threw (anything else is thrown on). */
export async function verdictOf<C>(
  replay: () => Promise<LoopReplay<C>>,
  description: string,
): Promise<LoopPathVerdict<C>> {
  try {
    return { verdict: 'passed', replay: await replay() };
  } catch (error) {
    if (isLoopPathUnrealisableError(error))
      return { verdict: 'unrealisable', reason: error.reason };
    if (isLoopPathMismatchError(error)) {
      const reproduction = `getLoopPaths(machine, options).find((path) => path.description === ${JSON.stringify(description)})?.replay()`;
      return { verdict: 'failed', error, reproduction };
    }
    throw error;
  }
}
