export type { MachineJson, MachineJsonEdge } from '../diagram/toMachineJson.js';
export { toMachineJson } from '../diagram/toMachineJson.js';
export type { MermaidOptions } from '../diagram/toMermaid.js';
export { toMermaid } from '../diagram/toMermaid.js';
export type { CycleReport } from './analyzeCycles.js';
export { analyzeCycles } from './analyzeCycles.js';
export {
  assertBoundedLoops,
  describeCycle,
  isUnboundedLoopError,
  UnboundedLoopError,
} from './assertBoundedLoops.js';
export { budgetGuard, isBudgetGuard } from './budgetGuard.js';
export type { CycleCheckOptions, UnboundedCycle } from './findUnboundedCycles.js';
export { findUnboundedCycles } from './findUnboundedCycles.js';
export type {
  GraphEdge,
  GraphEdgeKind,
  GraphNode,
  GraphNodeType,
  MachineGraph,
} from './machineGraph.js';
export { machineGraph, WAITS_FOR_HUMAN } from './machineGraph.js';
