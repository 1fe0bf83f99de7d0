// An app machine that invokes a loop, watched with observeLoop.
import { expectTypeOf } from 'expect-type';
import {
  createLoopMachine,
  type LoopOutcome,
  observeLoop,
  type PendingRequest,
  type RunEvent,
} from 'loopchart';
import { assign, createActor, setup } from 'xstate';

interface Draft {
  title: string;
  words: number;
}

const draftLoop = createLoopMachine({
  types: { input: '' as string },
  maxRetries: 3,
  attempt: ({ input }): Draft => ({ title: input, words: input.split(' ').length }),
  validate: (draft) => (draft.words > 0 ? { valid: true } : { valid: false }),
  review: { beforeProceed: true },
});

export const app = setup({
  types: {
    context: {} as { outcome?: LoopOutcome<Draft> },
    events: {} as { type: 'write'; topic: string } | { type: 'cancel' },
  },
  actors: { draftLoop },
}).createMachine({
  initial: 'idle',
  context: {},
  states: {
    idle: { on: { write: 'drafting' } },
    drafting: {
      invoke: {
        src: 'draftLoop',
        input: ({ event }) => ({ input: event.type === 'write' ? event.topic : '' }),
        onDone: {
          target: 'done',
          actions: assign({ outcome: ({ event }) => event.output }),
        },
      },
      on: { cancel: 'idle' },
    },
    done: { type: 'final' },
  },
});

export function watch(topic: string): void {
  const actor = createActor(draftLoop, { input: { input: topic } });
  const seen: RunEvent<Draft>[] = [];
  observeLoop(actor, (event) => {
    // probe: observeLoop reads the candidate type from the actor
    expectTypeOf(event).toEqualTypeOf<RunEvent<Draft>>();
    if (event.type === 'pause') expectTypeOf(event.pending).toEqualTypeOf<PendingRequest<Draft>>();
    if (event.type === 'outcome' && event.outcome.status === 'proceed') {
      const words: number = event.outcome.candidate.words;
      void words;
    }
    seen.push(event);
  });
  actor.start();
}
