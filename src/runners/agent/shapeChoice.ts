import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { ResolvedAgent } from './agentConfig.js';
import { certifyShape, type ShapeCertificate } from './certifyShape.js';
import type { ShapeDecision } from './routeShape.js';
import type { Shape } from './shapes.js';

export const AGENT_CHOICE_FORMAT = 'loopchart.agent.choice';

/** One shape the owner may choose, with its worst case before the first call. */
export interface ShapeCandidate {
  shape: Shape;
  /** Who suggested it. */
  suggestedBy: 'heuristic' | 'model';
  /**
   * `certifyShape`: `certifyLoop` of the single-shot task or the task; for `pipeline`, whose
   * stages are planned only after the choice, the planner and the largest plan the agent accepts
   * (`certifyPipeline` of each of `worstPlans`).
   */
  certificate: ShapeCertificate;
  /** What the certificate covers. */
  covers: 'the whole run' | 'the planner and the largest plan';
  gains: string;
  risks: string;
}

/** The owner choice brief of an agent run whose heuristic and model check disagree (JSON). */
export interface ShapeChoiceBrief {
  format: typeof AGENT_CHOICE_FORMAT;
  request: string;
  decision: ShapeDecision;
  candidates: ShapeCandidate[];
  recommendation: { shape: Shape; reason: string; missingFact: string };
  question: string;
}

/** The answer to a shape choice: `resumeAgent(agent, { store, runId, event })`. */
export interface ShapeChoiceAnswer {
  type: 'shape.choose';
  shape: Shape;
}

const GAINS: Record<Shape, [string, string]> = {
  'single-shot': [
    'the cheapest and fastest: one attempt, one validation',
    'no refine: a rejected answer ends the run with it as partial',
  ],
  loop: [
    'adapts: a rejected answer is refined within the budget',
    'more calls than single-shot when the first answer is rejected',
  ],
  pipeline: [
    'the most adaptable: planned stages, each a bounded loop, checked together',
    'the stages are unknown until planned: the bound is the largest plan the agent accepts',
  ],
};

/**
 * The brief of a disagreement: both shapes with their certificates, a recommendation (the
 * cheaper shape, unless it is unbounded in cost) and one question.
 * @example const brief = shapeChoiceBrief(agent.config, request, decision);
 */
export function shapeChoiceBrief(
  agent: ResolvedAgent,
  request: string,
  decision: ShapeDecision & { disagreement: NonNullable<ShapeDecision['disagreement']> },
): ShapeChoiceBrief {
  const { heuristic, model } = decision.disagreement;
  const candidates = (
    [
      [heuristic, 'heuristic'],
      [model, 'model'],
    ] as const
  ).map(([shape, suggestedBy]): ShapeCandidate => {
    const [gains, risks] = GAINS[shape];
    return {
      shape,
      suggestedBy,
      certificate: certifyShape(agent, shape),
      covers: shape === 'pipeline' ? 'the planner and the largest plan' : 'the whole run',
      gains,
      risks,
    };
  });
  const [first, second] = candidates as [ShapeCandidate, ShapeCandidate];
  const cheaper = SHAPE_ORDER(first.shape) <= SHAPE_ORDER(second.shape) ? first : second;
  const costlier = cheaper === first ? second : first;
  const calls = ({ certificate }: ShapeCandidate) =>
    certificate.kind === 'loop' ? certificate.calls.total.value : certificate.calls.total;
  return {
    format: AGENT_CHOICE_FORMAT,
    request,
    decision,
    candidates,
    recommendation: {
      shape: cheaper.shape,
      reason: `${cheaper.shape} is bounded by ${calls(cheaper) ?? 'unbounded'} calls against ${calls(costlier) ?? 'unbounded'}${costlier.shape === 'pipeline' ? ' for the planner and the largest plan' : ''}`,
      missingFact: `whether the request needs ${costlier.shape === 'pipeline' ? 'several dependent parts' : 'refinement after a rejected answer'}`,
    },
    question: `Run "${request}" as ${first.shape} (the ${first.suggestedBy}) or ${second.shape} (the ${second.suggestedBy})?`,
  };
}

const SHAPE_ORDER = (shape: Shape) => ['single-shot', 'loop', 'pipeline'].indexOf(shape);

/** Reads a stored brief, or `undefined` when `data` holds something else. */
export function shapeChoiceOf(data: string): ShapeChoiceBrief | undefined {
  try {
    const parsed = JSON.parse(data) as Partial<ShapeChoiceBrief> | null;
    return parsed?.format === AGENT_CHOICE_FORMAT && Array.isArray(parsed.candidates)
      ? (parsed as ShapeChoiceBrief)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks an answer against the brief and returns the decision it makes; throws
 * `LoopConfigError` for an answer that is not one of the brief's shapes.
 */
export function decisionOfAnswer(brief: ShapeChoiceBrief, answer: unknown): ShapeDecision {
  const shapes = brief.candidates.map((candidate) => candidate.shape);
  const chosen = (answer as Partial<ShapeChoiceAnswer> | undefined)?.shape;
  if (
    (answer as Partial<ShapeChoiceAnswer> | undefined)?.type !== 'shape.choose' ||
    !shapes.includes(chosen as Shape)
  ) {
    throw new LoopConfigError(
      `loopchart: invalid answer\n  - event: the run waits for { type: 'shape.choose', shape: ${shapes.map((s) => `'${s}'`).join(' | ')} }`,
    );
  }
  return {
    ...brief.decision,
    shape: chosen as Shape,
    decidedBy: 'owner',
    reasons: [...brief.decision.reasons, `the owner chose ${chosen}`],
  };
}
