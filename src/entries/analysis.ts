export type {
  Bound,
  CallKind,
  CertifyOptions,
  LoopCertificate,
  PathStep,
} from '../core/certificate/certificateTypes.js';
export type { CertifyFacts } from '../core/certificate/certifyLoop.js';
export { certifyLoop, certifySettings } from '../core/certificate/certifyLoop.js';
export type { LoopMove, LoopNode, MoveRules, StepOutcome } from '../core/certificate/loopMoves.js';
export { loopMoves, START } from '../core/certificate/loopMoves.js';
export { budgetGuard, isBudgetGuard } from '../core/decisions/budgetGuard.js';
export type {
  CertifyPipelineOptions,
  PipelineCertificate,
} from '../runners/pipeline/certifyPipeline.js';
export { certifyPipeline } from '../runners/pipeline/certifyPipeline.js';
export type { CycleReport } from '../tools/analysis/analyzeCycles.js';
export { analyzeCycles } from '../tools/analysis/analyzeCycles.js';
export type { AssertBoundedOptions } from '../tools/analysis/assertBoundedLoops.js';
export {
  assertBoundedLoops,
  describeCycle,
  isUnboundedLoopError,
  UnboundedLoopError,
} from '../tools/analysis/assertBoundedLoops.js';
export type {
  ClassifiedCycle,
  CycleBound,
  CycleVerdict,
} from '../tools/analysis/classifyCycles.js';
export { classifyCycles } from '../tools/analysis/classifyCycles.js';
export type { CycleMark } from '../tools/analysis/cycleMarkers.js';
export { cycleMarksOf, drainsQueue, gatedBy, sendsOnly } from '../tools/analysis/cycleMarkers.js';
export {
  certificateBadge,
  describeCertificate,
  describePath,
  formatMs,
} from '../tools/analysis/describeCertificate.js';
export type { MarkerHint } from '../tools/analysis/eventCauses.js';
export type { CycleCheckOptions, UnboundedCycle } from '../tools/analysis/findUnboundedCycles.js';
export { findUnboundedCycles } from '../tools/analysis/findUnboundedCycles.js';
export type {
  GraphEdge,
  GraphEdgeKind,
  GraphNode,
  GraphNodeType,
  MachineGraph,
} from '../tools/analysis/machineGraph.js';
export { machineGraph, WAITS_FOR_HUMAN } from '../tools/analysis/machineGraph.js';
export type { MachineJson, MachineJsonEdge } from '../tools/diagram/toMachineJson.js';
export { toMachineJson } from '../tools/diagram/toMachineJson.js';
export type { MermaidOptions } from '../tools/diagram/toMermaid.js';
export { toMermaid } from '../tools/diagram/toMermaid.js';
