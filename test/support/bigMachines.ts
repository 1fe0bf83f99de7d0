import { createMachine } from 'xstate';
import { toJsonSafe } from '../../src/tools/viewer/toJsonSafe.js';

/**
 * A plain form wizard: 22 steps and a done state (23 states), each step going on, back, to a
 * help page of its section, to review and to cancel, 82 transitions in all. Issue 29's example:
 * ELK took 53 s over it on the thread serving requests.
 */
export function wizardMachine() {
  const steps = 22;
  const states: Record<string, unknown> = {};
  for (let i = 0; i < steps; i += 1) {
    const on: Record<string, unknown> = { NEXT: { target: `step${i + 1}`, guard: 'stepIsValid' } };
    if (i > 0) on.HELP = `step${(i * 5 + 3) % steps}`;
    if (i > 0) on.BACK = `step${i - 1}`;
    if (i % 3 === 0 && i > 0) on.CANCEL = 'step0';
    if (i % 2 === 1) on.REVIEW = { target: `step${(i + 7) % steps}`, guard: 'hasDraft' };
    states[`step${i}`] = { on };
  }
  states.step22 = { type: 'final' };
  return createMachine({ id: 'wizard', initial: 'step0', states: states as never });
}

/** A machine of `count` states in a ring, each with three transitions (on, back, skip ahead). */
export function ringMachine(count: number) {
  const states: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    states[`s${i}`] = {
      on: {
        NEXT: `s${(i + 1) % count}`,
        BACK: `s${(i + count - 1) % count}`,
        SKIP: `s${(i * 7 + 3) % count}`,
      },
    };
  }
  return createMachine({ id: 'ring', initial: 's0', states: states as never });
}

/** A machine's definition as an inspector reports it (its raw config as JSON). */
export const definitionOf = (machine: { config: unknown }) =>
  JSON.stringify(toJsonSafe(machine.config));
