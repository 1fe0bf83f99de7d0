import type { AnyStateMachine } from 'xstate';
import { type GraphEdge, type MachineGraph, machineGraph } from '../analysis/machineGraph.js';
import { findBackEdges } from './findBackEdges.js';

/** A machine graph edge, marked when it closes a cycle (see `findBackEdges`). */
export interface MachineJsonEdge extends GraphEdge {
  backEdge: boolean;
}

/** A machine's states and transitions as JSON: `always` included, back-edges marked. */
export interface MachineJson extends Omit<MachineGraph, 'edges'> {
  edges: MachineJsonEdge[];
}

/**
 * The machine as plain JSON for diagrams and tools: every state node and every transition (split
 * per target, `always` included), with guard names, budget guards and back-edges marked.
 * @example const json = toMachineJson(createLoopMachine({ attempt, validate, maxRetries: 5 }));
 *          json.edges.filter((edge) => edge.backEdge); // refining → attempting, …
 */
export function toMachineJson(machine: AnyStateMachine): MachineJson {
  return withBackEdges(machineGraph(machine));
}

/** Marks the back-edges of an already extracted graph. */
export function withBackEdges(graph: MachineGraph): MachineJson {
  const back = findBackEdges(graph);
  return { ...graph, edges: graph.edges.map((edge) => ({ ...edge, backEdge: back.has(edge.id) })) };
}
