import { fromPromise } from 'xstate';
import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';
import type { PipelinePlan } from './pipelinePlan.js';

/** The input the cross-check actor is invoked with (JSON). */
export interface CrossCheckInput {
  layer: number;
  stages: string[];
  results: Record<string, unknown>;
  input: unknown;
}

/**
 * Runs the plan's cross-stage checker on a layer's results; its answer is parsed by the machine.
 * A checker that does not answer within `timeoutMs` fails (its signal aborted), so a hung checker
 * pauses the pipeline instead of holding it forever.
 */
export function crossCheckActor(crossCheck: PipelinePlan['crossCheck'], timeoutMs: number) {
  return fromPromise<unknown, CrossCheckInput>(async ({ input, signal }) => {
    if (!crossCheck) return { valid: true };
    const { results, ...ctx } = input;
    return withTimeLimit((own) => crossCheck(results, Object.freeze({ ...ctx, signal: own })), {
      ms: timeoutMs,
      timeout: () => new Error(`the cross-check did not answer within ${timeoutMs} ms`),
      signal,
    });
  });
}
