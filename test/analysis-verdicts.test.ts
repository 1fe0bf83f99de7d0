import { budgetGuard, classifyCycles } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, not, setup } from 'xstate';

// classifyCycles: every cycle of a machine with its verdict, reason and (can't tell) marker.

const work = fromPromise(async () => 'ok');
const summary = (machine: Parameters<typeof classifyCycles>[0]) =>
  classifyCycles(machine).map(({ states, verdict, bound }) => ({ states, verdict, bound }));

describe('classifyCycles', () => {
  it('gives each cycle one verdict, unbounded first, and keeps the fields the viewer reads', () => {
    const machine = setup({
      types: { context: {} as { tries: number } },
      actors: { work },
      guards: { underCap: budgetGuard(({ context }) => context.tries < 3) },
    }).createMachine({
      id: 'm',
      context: { tries: 0 },
      initial: 'polling',
      states: {
        polling: { invoke: { src: 'work', onDone: 'resting' } },
        resting: { after: { 100: 'polling' }, on: { EDIT: 'editing' } },
        editing: { on: { SAVE: 'saving' } },
        saving: {
          invoke: { src: 'work', onDone: 'checking' },
        },
        checking: {
          always: [
            {
              guard: 'underCap',
              target: 'saving',
              actions: assign({ tries: ({ context }) => context.tries + 1 }),
            },
            { target: 'editing' },
          ],
        },
      },
    });
    const cycles = classifyCycles(machine);
    expect(summary(machine)).toEqual([
      { states: ['m.polling', 'm.resting'], verdict: 'unbounded', bound: undefined },
      { states: ['m.editing', 'm.saving', 'm.checking'], verdict: 'bounded', bound: 'gate' },
      { states: ['m.saving', 'm.checking'], verdict: 'bounded', bound: 'budget' },
    ]);
    expect(
      cycles[0]?.edges.map(({ source, target, event }) => ({ source, target, event })),
    ).toEqual([
      { source: 'm.polling', target: 'm.resting', event: 'xstate.done.actor.0.m.polling' },
      { source: 'm.resting', target: 'm.polling', event: 'xstate.after.100.m.resting' },
    ]);
    expect(cycles[1]?.reason).toContain('SAVE');
    expect(cycles[2]?.reason).toContain('underCap');
  });

  it('calls contradicting always guards bounded', () => {
    const flip = setup({ guards: { open: () => true } }).createMachine({
      id: 'flip',
      initial: 'a',
      states: {
        a: { always: { guard: 'open', target: 'b' } },
        b: { always: { guard: not('open'), target: 'a' } },
      },
    });
    expect(summary(flip)).toEqual([
      { states: ['flip.a', 'flip.b'], verdict: 'bounded', bound: 'complementary' },
    ]);
  });
});
