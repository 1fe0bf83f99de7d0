export type { AgentPlanSource } from '../runners/agent/agentActors.js';
export { AGENT_PLAN_FORMAT } from '../runners/agent/agentActors.js';
export type { AgentConfig, ResolvedAgent } from '../runners/agent/agentConfig.js';
export { resolveAgentConfig } from '../runners/agent/agentConfig.js';
export type {
  AgentContext,
  AgentMachineInput,
  AgentResume,
  AgentStep,
  AgentTraceEntry,
  PlanningResult,
} from '../runners/agent/agentContext.js';
export type { AgentOutcome, AgentStatus } from '../runners/agent/agentOutcome.js';
export type {
  PlannedPipelineCertificate,
  ShapeCertificate,
} from '../runners/agent/certifyShape.js';
export { certifyShape, worstPlans } from '../runners/agent/certifyShape.js';
export type { Agent, AgentMachine } from '../runners/agent/createAgent.js';
export { createAgent } from '../runners/agent/createAgent.js';
export type {
  ModelCheckCall,
  ModelCheckOptions,
  ModelCheckReply,
  ModelCheckReport,
} from '../runners/agent/modelCheck.js';
export { askModelCheck } from '../runners/agent/modelCheck.js';
export { pauseForChoice } from '../runners/agent/pauseForChoice.js';
export type { PlanCheck, PlanDocument } from '../runners/agent/planDocument.js';
export { checkPlan, planDocumentSchema, planFromDocument } from '../runners/agent/planDocument.js';
export type { PlannerContext, PlannerOptions } from '../runners/agent/plannerLoop.js';
export { planInstructions } from '../runners/agent/plannerLoop.js';
export type { ResolvedRouter, ShapeDecision } from '../runners/agent/routeShape.js';
export { routeShape } from '../runners/agent/routeShape.js';
export type { AgentRunOptions, ResumeAgentOptions } from '../runners/agent/runAgent.js';
export { resumeAgent, runAgent } from '../runners/agent/runAgent.js';
export type {
  ShapeCandidate,
  ShapeChoiceAnswer,
  ShapeChoiceBrief,
} from '../runners/agent/shapeChoice.js';
export {
  AGENT_CHOICE_FORMAT,
  decisionOfAnswer,
  shapeChoiceBrief,
  shapeChoiceOf,
} from '../runners/agent/shapeChoice.js';
export type { HeuristicVerdict, RuleMatch, ShapeRule } from '../runners/agent/shapeRules.js';
export { DEFAULT_SHAPE_RULES, matchShapeRules } from '../runners/agent/shapeRules.js';
export type { Shape } from '../runners/agent/shapes.js';
export { SHAPES } from '../runners/agent/shapes.js';
export type {
  DefaultStageInput,
  PlannedStageInput,
  StageKind,
  StageRegistry,
  TypedStageKind,
} from '../runners/agent/stageRegistry.js';
export { stageKind } from '../runners/agent/stageRegistry.js';
