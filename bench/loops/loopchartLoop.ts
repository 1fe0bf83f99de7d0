import {
  createLoopMachine,
  type LoopConfig,
  type LoopOutcome,
  runLoop,
  runLoopMachine,
} from 'loopchart';
import {
  attempt,
  type Draft,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
  validate,
} from './workload.js';

const config: LoopConfig<Task, Draft> = {
  maxRetries: MAX_RETRIES,
  attempt: ({ input }) => attempt(input),
  validate: (candidate) => validate(candidate),
  refine: ({ input, error }) => refine(input, error.message),
};

function implementation(
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

/** `runLoop` as a user calls it: the machine is built from the config on every run. */
export const loopchart = implementation('loopchart runLoop', (task) => runLoop(config, task));

const machine = createLoopMachine(config);
/** The machine built once, each run started with `runLoopMachine`. */
export const loopchartPrebuilt = implementation('loopchart runLoopMachine', (task) =>
  runLoopMachine(machine, task),
);

/** `runLoop` without the trace, reproducibility keys and stall fingerprints. */
const bareConfig: LoopConfig<Task, Draft> = { ...config, trace: false, stall: false };
export const loopchartBare = implementation('loopchart, trace+stall off', (task) =>
  runLoop(bareConfig, task),
);
