import { fromPromise } from 'xstate';
import type { PipelinePlan } from './pipelinePlan.js';

/** The input the cross-check actor is invoked with (JSON). */
export interface CrossCheckInput {
  layer: number;
  stages: string[];
  results: Record<string, unknown>;
  input: unknown;
}

/** Runs the plan's cross-stage checker on a layer's results; its answer is parsed by the machine. */
export function crossCheckActor(crossCheck: PipelinePlan['crossCheck']) {
  return fromPromise<unknown, CrossCheckInput>(async ({ input, signal }) => {
    if (!crossCheck) return { valid: true };
    const { results, ...ctx } = input;
    return crossCheck(results, Object.freeze({ ...ctx, signal }));
  });
}
