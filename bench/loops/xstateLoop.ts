import { assign, createActor, fromPromise, setup, toPromise } from 'xstate';
import {
  attempt,
  type Draft,
  type LoopImplementation,
  type LoopResult,
  MAX_RETRIES,
  refine,
  type Task,
  type Verdict,
  validate,
} from './workload.js';

interface Context {
  input: Task;
  candidate: Draft | undefined;
  feedback: string | undefined;
  retries: number;
}

const actors = {
  attempt: fromPromise<Draft, Task>(({ input }) => attempt(input)),
  validate: fromPromise<Verdict, Draft>(({ input }) => validate(input)),
  refine: fromPromise<Task, { input: Task; feedback: string | undefined }>(({ input }) =>
    refine(input.input, input.feedback),
  ),
};

/**
 * The floor for an XState design: the same three steps as promise actors, inline guards, a retry
 * cap and an error exit per step — what a user writing this loop by hand would have.
 */
const machine = setup({
  types: { context: {} as Context, input: {} as Task, output: {} as LoopResult },
  actors,
}).createMachine({
  context: ({ input }) => ({ input, candidate: undefined, feedback: undefined, retries: 0 }),
  initial: 'attempting',
  states: {
    attempting: {
      invoke: {
        src: 'attempt',
        input: ({ context }) => context.input,
        onDone: {
          target: 'validating',
          actions: assign({ candidate: ({ event }) => event.output }),
        },
        onError: 'failed',
      },
    },
    validating: {
      invoke: {
        src: 'validate',
        input: ({ context }) => context.candidate as Draft,
        onDone: [
          { guard: ({ event }) => event.output.valid, target: 'done' },
          {
            guard: ({ context }) => context.retries < MAX_RETRIES,
            target: 'refining',
            actions: assign({
              retries: ({ context }) => context.retries + 1,
              feedback: ({ event }) =>
                event.output.valid ? undefined : event.output.error.message,
            }),
          },
          { target: 'exhausted' },
        ],
        onError: 'failed',
      },
    },
    refining: {
      invoke: {
        src: 'refine',
        input: ({ context }) => ({ input: context.input, feedback: context.feedback }),
        onDone: { target: 'attempting', actions: assign({ input: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    done: { type: 'final' },
    exhausted: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) => ({ candidate: context.candidate, iterations: context.retries }),
});

export const xstateLoop: LoopImplementation = {
  name: 'minimal XState v5 machine',
  run: (task) => toPromise(createActor(machine, { input: task }).start()),
};

/**
 * The same floor with the one thing SPEC §1 asks for that the minimal machine skips: a visible
 * `routing` state that takes the decision (an eventless `always` state). It costs one more
 * microstep per iteration, the floor for any design whose decision is a state of the chart.
 */
const routedMachine = createRoutedMachine();

function createRoutedMachine() {
  return setup({
    types: {
      context: {} as Context & { verdict?: Verdict },
      input: {} as Task,
      output: {} as LoopResult,
    },
    actors,
  }).createMachine({
    context: ({ input }) => ({ input, candidate: undefined, feedback: undefined, retries: 0 }),
    initial: 'attempting',
    states: {
      attempting: {
        invoke: {
          src: 'attempt',
          input: ({ context }) => context.input,
          onDone: {
            target: 'validating',
            actions: assign({ candidate: ({ event }) => event.output }),
          },
          onError: 'failed',
        },
      },
      validating: {
        invoke: {
          src: 'validate',
          input: ({ context }) => context.candidate as Draft,
          onDone: { target: 'routing', actions: assign({ verdict: ({ event }) => event.output }) },
          onError: 'failed',
        },
      },
      routing: {
        always: [
          { guard: ({ context }) => context.verdict?.valid === true, target: 'done' },
          {
            guard: ({ context }) => context.retries < MAX_RETRIES,
            target: 'refining',
            actions: assign({
              retries: ({ context }) => context.retries + 1,
              feedback: ({ context }) =>
                context.verdict && !context.verdict.valid
                  ? context.verdict.error.message
                  : undefined,
            }),
          },
          { target: 'exhausted' },
        ],
      },
      refining: {
        invoke: {
          src: 'refine',
          input: ({ context }) => ({ input: context.input, feedback: context.feedback }),
          onDone: { target: 'attempting', actions: assign({ input: ({ event }) => event.output }) },
          onError: 'failed',
        },
      },
      done: { type: 'final' },
      exhausted: { type: 'final' },
      failed: { type: 'final' },
    },
    output: ({ context }) => ({ candidate: context.candidate, iterations: context.retries }),
  });
}

export const xstateRoutedLoop: LoopImplementation = {
  name: 'XState floor + a routing state',
  run: (task) => toPromise(createActor(routedMachine, { input: task }).start()),
};
