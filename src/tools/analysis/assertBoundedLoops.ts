import type { AnyStateMachine } from 'xstate';
import { searchCycles } from './analyzeCycles.js';
import { type ClassifiedCycle, classifyFound } from './classifyCycles.js';
import type { CycleCheckOptions, UnboundedCycle } from './findUnboundedCycles.js';

const BRAND = Symbol.for('loopchart.UnboundedLoopError');

/** Options of `assertBoundedLoops`: the check's own, and what to do with cycles it cannot decide. */
export interface AssertBoundedOptions extends CycleCheckOptions {
  /**
   * Fail on cycles the check cannot decide (`cant_tell`) too, not only on unbounded ones. Default
   * false: they are passed to `warn`, each with the marker that would decide it.
   */
  strict?: boolean;
  /** Where the default mode reports undecided cycles (default `console.warn`); `false` for nowhere. */
  warn?: ((message: string) => void) | false;
}

/** Thrown by `assertBoundedLoops`: the machine has cycles nothing bounds (or, strict, undecided ones). */
export class UnboundedLoopError extends Error {
  override readonly name = 'UnboundedLoopError';
  /** The unbounded cycles. */
  readonly cycles: UnboundedCycle[];
  /** Strict mode: the cycles the check could not decide, each with its marker. */
  readonly undecided: ClassifiedCycle[];
  readonly [BRAND] = true;

  constructor(machineId: string, cycles: UnboundedCycle[], undecided: ClassifiedCycle[] = []) {
    const count = cycles.length === 1 ? '1 unbounded cycle' : `${cycles.length} unbounded cycles`;
    const lines =
      cycles.length === 0
        ? []
        : [
            `Machine "${machineId}" has ${count}: no budget guard bounds it and no human wait gates it.`,
            ...cycles.map((cycle, i) => `  ${i + 1}. ${describeCycle(cycle)}`),
            `Guard a transition of each cycle with a guard marked budgetGuard(...), or pass it through a state tagged 'waitsForHuman'.`,
          ];
    if (undecided.length > 0) lines.push(undecidedMessage(machineId, undecided, 'strict'));
    super(lines.join('\n'));
    this.cycles = cycles;
    this.undecided = undecided;
  }
}

/** True for an `UnboundedLoopError`, even one thrown by another copy of loopchart. */
export function isUnboundedLoopError(error: unknown): error is UnboundedLoopError {
  return typeof error === 'object' && error !== null && BRAND in error;
}

/**
 * Throws an `UnboundedLoopError` listing each cycle of states (in order) that no budget guard
 * bounds and no human wait gates; returns quietly when every loop of the machine is bounded.
 * Cycles it cannot decide are warned about with the marker that decides each (`strict: true`
 * fails on them too).
 * @example assertBoundedLoops(createLoopMachine(config)); // loopchart's own machines always pass
 */
export function assertBoundedLoops(
  machine: AnyStateMachine,
  options: AssertBoundedOptions = {},
): void {
  const { strict = false, warn = console.warn, ...check } = options;
  if (typeof strict !== 'boolean')
    throw new TypeError(`strict must be a boolean, got ${String(strict)}`);
  if (warn !== false && typeof warn !== 'function')
    throw new TypeError(`warn must be a function or false, got ${String(warn)}`);
  const found = searchCycles(machine, check, [0, 1], false);
  const cycles = found.filter((one) => one.level === 0).map((one) => one.cycle);
  const undecided = found.filter((one) => one.level === 1).map(classifyFound);
  if (cycles.length > 0 || (strict && undecided.length > 0))
    throw new UnboundedLoopError(machine.id, cycles, strict ? undecided : []);
  if (undecided.length > 0 && warn) warn(undecidedMessage(machine.id, undecided, 'warn'));
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

function undecidedMessage(id: string, cycles: ClassifiedCycle[], mode: 'strict' | 'warn'): string {
  const count = cycles.length === 1 ? '1 cycle' : `${cycles.length} cycles`;
  const head =
    mode === 'strict'
      ? `Machine "${id}" has ${count} the termination check cannot decide (strict mode):`
      : `loopchart: machine "${id}" has ${count} the termination check cannot decide; add the marker to settle each (strict: true fails on them):`;
  return [
    head,
    ...cycles.map(
      (cycle, i) =>
        `  ${i + 1}. ${describeCycle(cycle)}\n     ${cycle.reason}\n     marker: ${cycle.marker ?? '?'}`,
    ),
  ].join('\n');
}
