import {
  compileLoop,
  createLoopMachine,
  type LoopConfig,
  type LoopOutcome,
  runLoop,
} from 'loopchart';
import { createActor } from 'xstate';
import {
  attempt,
  type Draft,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
  validate,
} from './workload.js';

/** The workload as a loopchart config. */
export const config: LoopConfig<Task, Draft> = {
  maxRetries: MAX_RETRIES,
  attempt: ({ input }) => attempt(input),
  validate: (candidate) => validate(candidate),
  refine: ({ input, error }) => refine(input, error.message),
};

/** A loopchart run of the workload as a bench implementation. */
export function implementation(
  name: string,
  start: (task: Task) => Promise<LoopOutcome<Draft>>,
): LoopImplementation {
  return {
    name,
    async run(task) {
      const outcome = await start(task);
      const candidate = outcome.status === 'proceed' ? outcome.candidate : undefined;
      return { candidate, iterations: outcome.iterations };
    },
  };
}

/** `runLoop` as a user calls it, with the config defaults (trace, keys and stall detection on). */
export const loopchart = implementation('loopchart runLoop', (task) => runLoop(config, task));

/** `runLoop` of a plan compiled once (`compileLoop`): nothing resolved or built per run. */
const plan = compileLoop(config);
export const loopchartPlan = implementation('loopchart runLoop(plan)', (task) =>
  runLoop(plan, task),
);

/** `runLoop` without the trace, reproducibility keys and stall fingerprints. */
const bareConfig: LoopConfig<Task, Draft> = { ...config, trace: false, stall: false };
export const loopchartBare = implementation('loopchart, trace+stall off', (task) =>
  runLoop(bareConfig, task),
);

/** `runLoop` with a config built per call, as when steps close over request data. */
export const loopchartPerCall = implementation('loopchart, config built per call', (task) =>
  runLoop<Task, Draft>(
    {
      maxRetries: MAX_RETRIES,
      attempt: ({ input }) => attempt(input),
      validate: (candidate) => validate(candidate),
      refine: ({ input, error }) => refine(input, error.message),
    },
    task,
  ),
);

/** Top-level keys of the loop machine's context (V8 copies one of 20 or more keys slowly). */
export function contextKeyCount(): number {
  const actor = createActor(createLoopMachine(config), {
    input: { input: { topic: 'keys', revision: 0 } },
  });
  return Object.keys(actor.getSnapshot().context).length;
}
