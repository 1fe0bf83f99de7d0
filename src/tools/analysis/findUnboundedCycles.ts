import type { AnyStateMachine } from 'xstate';
import { collectCycles } from './analyzeCycles.js';
import type { GraphEdge } from './machineGraph.js';

/** A cycle of states that nothing bounds: the machine could go round it forever on its own. */
export interface UnboundedCycle {
  /** Leaf state ids in the order the cycle visits them (the first is not repeated at the end). */
  states: string[];
  /** The transition taken out of each state of `states`, in the same order (the one that spins). */
  edges: GraphEdge[];
  /** In a child machine: how the checked machine reaches it, outermost first (`'app.sync invokes poller'`). */
  within?: string[];
  /** The invoked or spawned actors whose events drive it (a ticker; an actor-driven cycle's relays). */
  actors?: string[];
  /** Gated cycles: the outside events that gate it. */
  gates?: string[];
}

/** Options of the static termination check. */
export interface CycleCheckOptions {
  /**
   * What gates a cycle on a person: `'tagged-or-external'` (default) an event out of a state
   * tagged `waitsForHuman`, or an event nothing inside the machine sends; `'tagged'` only events out
   * of tagged states, for machines driven by other actors.
   */
  humanWait?: 'tagged-or-external' | 'tagged';
  /**
   * Declares what an invoked or spawned actor's events are, by invoke id or `src` name:
   * `'external'` (it relays a person: its events gate) or `'automated'` (it sends on its own). By
   * default an actor whose source starts a timer is automated and any other callback, observable or
   * machine is ambiguous: its cycles are reported apart (`analyzeCycles(...).actorDriven`).
   */
  actors?: Readonly<Record<string, 'external' | 'automated'>>;
  /** Stop after this many cycles per list (default 100); the check stays fast on dense machines. */
  limit?: number;
}

/**
 * Finds every cycle of states in any XState v5 machine (`always`, `after`, invoke done/error and
 * event transitions) that passes through no budget-guarded transition and needs no event from
 * outside on any lap; invoked and spawned child machines are checked too.
 * @example findUnboundedCycles(machine).map((cycle) => cycle.states.join(' → '))
 */
export function findUnboundedCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions = {},
): UnboundedCycle[] {
  return collectCycles(machine, options, [0]).unbounded;
}
