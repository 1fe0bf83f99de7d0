import { createMachine } from 'xstate';

/** A machine whose keys and events Mermaid would misread if written raw. */
export const oddKeysMachine = () =>
  createMachine({
    id: 'odd',
    initial: 'first step',
    on: { 'reset: all; now #1': '.end' },
    states: {
      'first step': { on: { 'go "quoted" {x} <b>': 'end' } },
      end: { initial: 'end', states: { end: { type: 'final' } } },
    },
  });
