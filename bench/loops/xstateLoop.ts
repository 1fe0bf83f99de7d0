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

/**
 * The floor for an XState design: the same three steps as promise actors, inline guards, a retry
 * cap and an error exit per step — what a user writing this loop by hand would have.
 */
const machine = setup({
  types: { context: {} as Context, input: {} as Task, output: {} as LoopResult },
  actors: {
    attempt: fromPromise<Draft, Task>(({ input }) => attempt(input)),
    validate: fromPromise<Verdict, Draft>(({ input }) => validate(input)),
    refine: fromPromise<Task, { input: Task; feedback: string | undefined }>(({ input }) =>
      refine(input.input, input.feedback),
    ),
  },
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
