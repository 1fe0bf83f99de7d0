export type { AgentPlanSource } from './agentActors.js';
export { AGENT_PLAN_FORMAT } from './agentActors.js';
export type { AgentConfig, ResolvedAgent } from './agentConfig.js';
export { resolveAgentConfig } from './agentConfig.js';
export type {
  AgentContext,
  AgentMachineInput,
  AgentResume,
  AgentStep,
  AgentTraceEntry,
  PlanningResult,
} from './agentContext.js';
export type { AgentOutcome, AgentStatus } from './agentOutcome.js';
export type { Agent, AgentMachine } from './createAgent.js';
export { createAgent } from './createAgent.js';
export type {
  ModelCheckCall,
  ModelCheckOptions,
  ModelCheckReply,
  ModelCheckReport,
} from './modelCheck.js';
export { askModelCheck } from './modelCheck.js';
export type { PlanCheck, PlanDocument } from './planDocument.js';
export { checkPlan, planDocumentSchema, planFromDocument } from './planDocument.js';
export type { PlannerContext, PlannerOptions } from './plannerLoop.js';
export { planInstructions } from './plannerLoop.js';
export type { ResolvedRouter, ShapeDecision } from './routeShape.js';
export { routeShape } from './routeShape.js';
export type { AgentRunOptions, ResumeAgentOptions } from './runAgent.js';
export { resumeAgent, runAgent } from './runAgent.js';
export type { HeuristicVerdict, RuleMatch, ShapeRule } from './shapeRules.js';
export { DEFAULT_SHAPE_RULES, matchShapeRules } from './shapeRules.js';
export type { Shape } from './shapes.js';
export { SHAPES } from './shapes.js';
export type { PlannedStageInput, StageKind, StageRegistry } from './stageRegistry.js';
