import {
  createLoopMachine,
  isPausedRun,
  type LoopConfig,
  type LoopEvent,
  type LoopMachineInput,
  type LoopOutcome,
  MemoryCheckpointStore,
  type PausedRun,
  type PendingRequest,
  resumeLoop,
  runLoop,
  type StepContext,
} from 'loopchart';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { assign, createActor, type InputFrom, type OutputFrom, setup, toPromise } from 'xstate';

// Checked by `tsc` in `npm test` (typecheck); vitest runs the same loops for real.
interface Ticket {
  title: string;
  priority: 'low' | 'high';
}
interface Draft {
  summary: string;
  words: number;
}

const valid = { valid: true } as const;
const draftOf = (ticket: Ticket): Draft => ({
  summary: `${ticket.priority}: ${ticket.title}`,
  words: ticket.title.split(' ').length,
});

describe('inferred loop types', () => {
  it('infers I and C in createLoopMachine from a types hint and the attempt', () => {
    const machine = createLoopMachine({
      types: { input: {} as Ticket },
      attempt: ({ input }) => draftOf(input),
      validate: (draft) => (draft.words > 0 ? valid : { valid: false }),
    });
    expectTypeOf<InputFrom<typeof machine>>().toEqualTypeOf<LoopMachineInput<Ticket>>();
    expectTypeOf<OutputFrom<typeof machine>>().toEqualTypeOf<LoopOutcome<Draft>>();
    void (() =>
      createLoopMachine({
        types: { input: {} as Ticket },
        // @ts-expect-error a Ticket has no 'titel'
        attempt: ({ input }) => input.titel,
        validate: () => valid,
      }));
  });

  it('infers I from an annotated ctx and keeps explicit generics possible', () => {
    const annotated = createLoopMachine({
      attempt: ({ input }: StepContext<Ticket>) => draftOf(input),
      validate: () => valid,
    });
    expectTypeOf<InputFrom<typeof annotated>>().toEqualTypeOf<LoopMachineInput<Ticket>>();
    expectTypeOf<OutputFrom<typeof annotated>>().toEqualTypeOf<LoopOutcome<Draft>>();
    const explicit = createLoopMachine<Ticket, string>({
      attempt: ({ input }) => input.title,
      validate: () => valid,
    });
    expectTypeOf<OutputFrom<typeof explicit>>().toEqualTypeOf<LoopOutcome<string>>();
    // @ts-expect-error the explicit candidate type is a string, the attempt returns a number
    void (() => createLoopMachine<Ticket, string>({ attempt: () => 1, validate: () => valid }));
  });
});

describe('typed answers and paused runs', () => {
  const config = {
    id: 'typed-review',
    review: { beforeProceed: true },
    attempt: ({ input }: StepContext<Ticket>) => draftOf(input),
    validate: () => valid,
  } satisfies LoopConfig<Ticket, Draft>;
  const ticket: Ticket = { title: 'printer on fire', priority: 'high' };

  it('carries C in a PausedRun and types review.modify by I and C', async () => {
    const store = new MemoryCheckpointStore();
    const first = await runLoop(config, ticket, { store, runId: 't1' });
    if (!isPausedRun(first)) throw new Error(`expected a pause, got ${first.status}`);
    expectTypeOf(first).toEqualTypeOf<PausedRun<Draft>>();
    expectTypeOf(first.pending).toEqualTypeOf<PendingRequest<Draft>>();
    if (first.pending.kind !== 'review') throw new Error('expected a review');
    expectTypeOf(first.pending.candidate).toEqualTypeOf<Draft>();
    expect(first.pending.candidate).toEqual({ summary: 'high: printer on fire', words: 3 });

    const edited: Draft = { ...first.pending.candidate, summary: 'HIGH: printer on fire' };
    const event: LoopEvent<Ticket, Draft> = { type: 'review.modify', candidate: edited };
    const wrong = () =>
      // @ts-expect-error a reviewer's candidate must be a Draft, not a string
      resumeLoop(config, { store, runId: 't1', event: { type: 'review.modify', candidate: 'x' } });
    void wrong;
    const badInput = () =>
      resumeLoop(config, {
        store,
        runId: 't1',
        // @ts-expect-error a modified input must be a Ticket
        event: { type: 'review.modify', input: { title: 'x' } },
      });
    void badInput;
    const second = await resumeLoop(config, { store, runId: 't1', event });
    if (!isPausedRun(second)) throw new Error(`expected a second review, got ${second.status}`);
    const done = await resumeLoop(config, {
      store,
      runId: 't1',
      event: { type: 'review.continue' },
    });
    expectTypeOf(done).toEqualTypeOf<LoopOutcome<Draft> | PausedRun<Draft>>();
    expect(done.status === 'proceed' && done.candidate).toEqual(edited);
  });

  it("types a spawned loop's onDone output as LoopOutcome<C>", async () => {
    const draft = createLoopMachine({
      attempt: ({ input }: StepContext<Ticket>) => draftOf(input),
      validate: () => valid,
    });
    const app = setup({
      types: { context: {} as { summary: string | undefined }, input: {} as Ticket },
      actors: { draft },
    }).createMachine({
      context: { summary: undefined },
      initial: 'drafting',
      states: {
        drafting: {
          invoke: {
            src: 'draft',
            input: () => ({ input: ticket }),
            onDone: {
              target: 'done',
              actions: assign(({ event }) => {
                expectTypeOf(event.output).toEqualTypeOf<LoopOutcome<Draft>>();
                const { output } = event;
                return {
                  summary: output.status === 'proceed' ? output.candidate.summary : undefined,
                };
              }),
            },
          },
        },
        done: { type: 'final' },
      },
    });
    const actor = createActor(app, { input: ticket }).start();
    await toPromise(actor);
    expect(actor.getSnapshot().context.summary).toBe('high: printer on fire');
  });
});
