import { askModelCheck, type ModelCheckOptions, type ModelCheckReport } from './modelCheck.js';
import { type HeuristicVerdict, matchShapeRules, type ShapeRule } from './shapeRules.js';
import type { Shape } from './shapes.js';

/** The router's settings after defaults (see `AgentConfig.router`). */
export interface ResolvedRouter {
  rules: readonly ShapeRule[];
  /** The shape of a request no rule matches. */
  defaultShape: Shape;
  modelCheck: Required<ModelCheckOptions> | undefined;
  /** False when the agent has no planner: a pipeline-shaped request then runs as a loop. */
  canPlan: boolean;
  /** When the model check's shape differs from the heuristic's: `model` decides, or `ask` the owner. */
  onDisagreement: 'model' | 'ask';
}

/** The shape chosen for a request, who chose it, and why (JSON; in the outcome and the trace). */
export interface ShapeDecision {
  shape: Shape;
  decidedBy: 'override' | 'heuristic' | 'model' | 'owner';
  /** One sentence per consideration, in the order they were weighed. */
  reasons: string[];
  heuristic: HeuristicVerdict;
  /** The model check, when it was asked. */
  model?: ModelCheckReport;
  /** With `onDisagreement: 'ask'`: the two shapes, when the heuristic and the model disagree. */
  disagreement?: { heuristic: Shape; model: Shape };
}

/**
 * Decides the shape of a request: the caller's `override`, else the heuristic tier, and the model
 * check when configured (and, by default, when no rule matched); a failed check leaves the
 * heuristic's shape. Never throws.
 * @example const decision = await routeShape('What is the VAT rate in Spain?', router);
 */
export async function routeShape(
  request: string,
  router: ResolvedRouter,
  { override, signal }: { override?: Shape | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ShapeDecision> {
  const heuristic = matchShapeRules(request, router.rules, router.defaultShape);
  if (override) {
    return {
      shape: override,
      decidedBy: 'override',
      reasons: [
        `the caller chose ${override}`,
        `the heuristic alone would have chosen ${heuristic.shape}`,
      ],
      heuristic,
    };
  }
  const check = router.modelCheck;
  const asks = check && (check.when === 'always' || heuristic.matches.length === 0);
  if (!asks)
    return plannable(
      {
        shape: heuristic.shape,
        decidedBy: 'heuristic',
        reasons: [...heuristic.reasons],
        heuristic,
      },
      router,
    );
  const model = await askModelCheck(check, request, signal);
  if (model.status !== 'answered') {
    return plannable(
      {
        shape: heuristic.shape,
        decidedBy: 'heuristic',
        reasons: [...heuristic.reasons, `${model.message}; the heuristic decides`],
        heuristic,
        model,
      },
      router,
    );
  }
  const shape: Shape = model.answer === 'simple' ? 'single-shot' : 'pipeline';
  const decision = plannable(
    {
      shape,
      decidedBy: 'model',
      reasons: [...heuristic.reasons, `${model.message} → ${shape}`],
      heuristic,
      model,
    },
    router,
  );
  const heuristicShape = plannable({ ...decision, shape: heuristic.shape }, router).shape;
  if (router.onDisagreement !== 'ask' || heuristicShape === decision.shape) return decision;
  return {
    ...decision,
    reasons: [
      ...decision.reasons,
      `the heuristic (${heuristicShape}) and the model check (${decision.shape}) disagree: the owner chooses`,
    ],
    disagreement: { heuristic: heuristicShape, model: decision.shape },
  };
}

function plannable(decision: ShapeDecision, router: ResolvedRouter): ShapeDecision {
  if (decision.shape !== 'pipeline' || router.canPlan) return decision;
  return {
    ...decision,
    shape: 'loop',
    reasons: [...decision.reasons, 'the agent has no planner, so a loop instead of a pipeline'],
  };
}
