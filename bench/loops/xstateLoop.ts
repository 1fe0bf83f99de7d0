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
  verdict: Verdict | undefined;
  feedback: string | undefined;
  retries: number;
}

const floor = setup({
  types: { context: {} as Context, input: {} as Task, output: {} as LoopResult },
  actors: {
    attempt: fromPromise<Draft, Task>(({ input }) => attempt(input)),
    validate: fromPromise<Verdict, Draft>(({ input }) => validate(input)),
    refine: fromPromise<Task, { input: Task; feedback: string | undefined }>(({ input }) =>
      refine(input.input, input.feedback),
    ),
  },
  guards: {
    // on validate's done event the verdict is its output; in `routing` it is already in context
    isValid: ({ context, event }) =>
      ((event as { output?: Verdict }).output ?? context.verdict)?.valid === true,
    hasRetriesLeft: ({ context }) => context.retries < MAX_RETRIES,
  },
  actions: {
    keepVerdict: assign({ verdict: (_, verdict: Verdict) => verdict }),
    countRetry: assign({
      retries: ({ context }) => context.retries + 1,
      feedback: ({ context }) =>
        context.verdict?.valid === false ? context.verdict.error.message : undefined,
    }),
  },
});

const attempting = floor.createStateConfig({
  invoke: {
    src: 'attempt',
    input: ({ context }) => context.input,
    onDone: { target: 'validating', actions: assign({ candidate: ({ event }) => event.output }) },
    onError: 'failed',
  },
});
const refining = floor.createStateConfig({
  invoke: {
    src: 'refine',
    input: ({ context }) => ({ input: context.input, feedback: context.feedback }),
    onDone: { target: 'attempting', actions: assign({ input: ({ event }) => event.output }) },
    onError: 'failed',
  },
});
const keepVerdict = {
  type: 'keepVerdict' as const,
  params: ({ event }: { event: { output: Verdict } }) => event.output,
};
/** The decision, as transitions; `before` runs first on each (keeping the verdict, inline). */
const decide = <A>(before: A[]) => [
  { guard: 'isValid' as const, target: 'done', actions: before },
  {
    guard: 'hasRetriesLeft' as const,
    target: 'refining',
    actions: [...before, 'countRetry' as const],
  },
  { target: 'exhausted', actions: before },
];

/**
 * The floor for an XState design: the same three steps as promise actors, named guards, a retry
 * cap and an error exit per step — what a user writing this loop by hand would have. With
 * `routed`, the decision is taken in a `routing` state (eventless `always`), as SPEC §1 asks:
 * one more microstep per iteration, the floor for any design whose decision is a state.
 */
function floorMachine(routed: boolean) {
  return floor.createMachine({
    context: ({ input }) => ({
      input,
      candidate: undefined,
      verdict: undefined,
      feedback: undefined,
      retries: 0,
    }),
    initial: 'attempting',
    states: {
      attempting,
      validating: {
        invoke: {
          src: 'validate',
          input: ({ context }) => context.candidate as Draft,
          onDone: routed ? { target: 'routing', actions: keepVerdict } : decide([keepVerdict]),
          onError: 'failed',
        },
      },
      ...(routed ? { routing: { always: decide<never>([]) } } : {}),
      refining,
      done: { type: 'final' },
      exhausted: { type: 'final' },
      failed: { type: 'final' },
    },
    output: ({ context }) => ({ candidate: context.candidate, iterations: context.retries }),
  });
}

const machine = floorMachine(false);
const routedMachine = floorMachine(true);

export const xstateLoop: LoopImplementation = {
  name: 'minimal XState v5 machine',
  run: (task) => toPromise(createActor(machine, { input: task }).start()),
};

/**
 * The same minimal machine built a second time: paired with the first, it shows how far one
 * implementation measures from itself on this machine, the noise every ratio above 1 carries.
 */
const machineAgain = floorMachine(false);
export const xstateLoopAgain: LoopImplementation = {
  name: 'minimal XState v5 machine, built again',
  run: (task) => toPromise(createActor(machineAgain, { input: task }).start()),
};

export const xstateRoutedLoop: LoopImplementation = {
  name: 'XState floor + a routing state',
  run: (task) => toPromise(createActor(routedMachine, { input: task }).start()),
};
