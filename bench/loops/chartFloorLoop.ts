import { createLoopMachine } from 'loopchart';
import {
  type AnyEventObject,
  type AnyStateMachine,
  assign,
  createActor,
  fromPromise,
  toPromise,
} from 'xstate';
import { config } from './loopchartLoop.js';
import {
  attempt,
  type Draft,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
  type Verdict,
  validate,
} from './workload.js';

interface Context {
  input: Task;
  candidate: Draft | undefined;
  verdict: Verdict | undefined;
  retryCount: number;
  attempts: number;
}
interface Args {
  context: Context;
}
const outputOf = ({ event }: { event: object }) => (event as { output?: unknown }).output;
const update = (
  changes: Parameters<typeof assign<Context, AnyEventObject, undefined, AnyEventObject, never>>[0],
) => assign<Context, AnyEventObject, undefined, AnyEventObject, never>(changes);

const never = () => false;
const nothing = () => {};

/**
 * loopchart's own chart for the workload's config (the one the machine-definition test pins), run
 * by XState with loopchart's work taken out: every action a no-op but the counters and the
 * candidate, verdict and input the minimal machine keeps too, guards that read only the verdict
 * and the retry count, and the workload's steps as plain promise actors. What is left is XState
 * executing this chart: the floor for any implementation of it.
 */
function chartFloor(): AnyStateMachine {
  const chart = createLoopMachine(config) as unknown as AnyStateMachine;
  const { actions, guards } = chart.implementations;
  return chart.provide({
    actions: {
      ...Object.fromEntries(Object.keys(actions).map((name) => [name, nothing])),
      startAttempt: update({ attempts: ({ context }) => context.attempts + 1 }),
      acceptCandidate: update({ candidate: (args) => outputOf(args) as Draft }),
      acceptVerdict: update({ verdict: (args) => outputOf(args) as Verdict }),
      countRetry: update({ retryCount: ({ context }) => context.retryCount + 1 }),
      acceptRefinement: update({ input: (args) => outputOf(args) as Task }),
    },
    guards: {
      ...Object.fromEntries(Object.keys(guards).map((name) => [name, never])),
      isValid: ({ context }: Args) => context.verdict?.valid === true,
      hasRetriesLeft: ({ context }: Args) => context.retryCount < MAX_RETRIES,
    },
    actors: {
      attempt: fromPromise<Draft, { input: Task }>(({ input }) => attempt(input.input)),
      validate: fromPromise<Verdict, { candidate: Draft }>(({ input }) =>
        validate(input.candidate),
      ),
      refine: fromPromise<Task, { input: Task; feedback?: { message: string } }>(({ input }) =>
        refine(input.input, input.feedback?.message),
      ),
    },
  } as never);
}

const machine = chartFloor();

export const chartFloorLoop: LoopImplementation = {
  name: "loopchart's chart, loopchart's work taken out",
  async run(task) {
    const outcome = (await toPromise(createActor(machine, { input: { input: task } }).start())) as {
      candidate?: Draft;
      iterations: number;
    };
    return { candidate: outcome.candidate, iterations: outcome.iterations };
  },
};
