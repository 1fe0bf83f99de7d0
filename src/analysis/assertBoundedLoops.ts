import type { AnyStateMachine } from 'xstate';
import {
  type CycleCheckOptions,
  findUnboundedCycles,
  type UnboundedCycle,
} from './findUnboundedCycles.js';

const BRAND = Symbol.for('loopchart.UnboundedLoopError');

/** Thrown by `assertBoundedLoops`: the machine has cycles nothing bounds. */
export class UnboundedLoopError extends Error {
  override readonly name = 'UnboundedLoopError';
  readonly cycles: UnboundedCycle[];
  readonly [BRAND] = true;

  constructor(machineId: string, cycles: UnboundedCycle[]) {
    const count = cycles.length === 1 ? '1 unbounded cycle' : `${cycles.length} unbounded cycles`;
    super(
      [
        `Machine "${machineId}" has ${count}: no budget guard bounds it and no human wait gates it.`,
        ...cycles.map((cycle, i) => `  ${i + 1}. ${describeCycle(cycle)}`),
        `Guard a transition of each cycle with a guard marked budgetGuard(...), or pass it through a state tagged 'waitsForHuman'.`,
      ].join('\n'),
    );
    this.cycles = cycles;
  }
}

/** True for an `UnboundedLoopError`, even one thrown by another copy of loopchart. */
export function isUnboundedLoopError(error: unknown): error is UnboundedLoopError {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/**
 * Throws an `UnboundedLoopError` listing each cycle of states (in order) that no budget guard
 * bounds and no human wait gates; returns quietly when every loop of the machine is bounded.
 * @example assertBoundedLoops(createLoopMachine(config)); // loopchart's own machines always pass
 */
export function assertBoundedLoops(machine: AnyStateMachine, options?: CycleCheckOptions): void {
  const cycles = findUnboundedCycles(machine, options);
  if (cycles.length > 0) throw new UnboundedLoopError(machine.id, cycles);
}

/**
 * `a →(always) b →(xstate.after.100.m.b) a`: each state, then how the cycle leaves it; a child
 * machine's cycle opens with the path to it, `(app.sync invokes poller) …`.
 */
export function describeCycle({ states, edges, within }: UnboundedCycle): string {
  const hops = states.map((state, i) => {
    const edge = edges[i];
    const how = edge ? edge.event || 'always' : '?';
    return `${state} →(${how}${edge?.guard ? ` if ${edge.guard}` : ''})`;
  });
  const path = within?.length ? `(${within.join(' › ')}) ` : '';
  return `${path}${hops.join(' ')} ${states[0] ?? ''}`;
}
