import { fromPromise } from 'xstate';
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
    const controller = new AbortController();
    const stop = () => controller.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`the cross-check did not answer within ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const check = Promise.resolve().then(() =>
      crossCheck(results, Object.freeze({ ...ctx, signal: controller.signal })),
    );
    check.catch(() => {});
    try {
      return await Promise.race([check, late]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  });
}
