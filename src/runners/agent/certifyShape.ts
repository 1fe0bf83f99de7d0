import type { CallKind, LoopCertificate } from '../../core/certificate/certificateTypes.js';
import { certifyLoop } from '../../core/certificate/certifyLoop.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { certifyPipeline, type PipelineCertificate } from '../pipeline/certifyPipeline.js';
import type { PipelinePlan, PipelineStage } from '../pipeline/pipelinePlan.js';
import type { ResolvedAgent } from './agentConfig.js';
import type { Shape } from './shapes.js';

/**
 * The worst case of an agent's `pipeline` shape before its plan is known: the planner loop, then
 * the largest plan the agent accepts. Every bound is the largest of `certifyPipeline` over the
 * plans `worstPlans` lists (the planner as their first stage), and `reachedBy` names the plan
 * that reaches it.
 */
export interface PlannedPipelineCertificate {
  kind: 'planned-pipeline';
  /** The planned pipeline's id. */
  id: string;
  /** The most stages a plan may have (`planner.maxStages`). */
  maxStages: number;
  /** `certifyPipeline` of each worst plan, by its name in `worstPlans`. */
  plans: Record<string, PipelineCertificate>;
  calls: Record<CallKind, number | null>;
  crossChecks: number;
  cost: number | null;
  timeMs: number | null;
  /** The plan each bound is reached by. */
  reachedBy: { calls: string; cost: string; timeMs: string };
  /** A failed stage, a checkpoint and a rejected cross-check pause for a person. */
  pauses: 'unbounded-by-design';
}

/** A shape's worst case: a loop's certificate, or a planned pipeline's. */
export type ShapeCertificate = LoopCertificate | PlannedPipelineCertificate;

/**
 * The plans that reach the worst case of an agent's planned pipeline: for each stage kind,
 * `maxStages` stages of it in a chain after the planner (`chain:<kind>`: the most calls, cost
 * and, unless cross-checks are slower than the kind, time) and, with a cross-check and two
 * stages or more, in pairs (`pairs:<kind>`: a cross-check per layer). A layer runs as long as its
 * slowest stage, and calls and cost add up, so no plan of at most `maxStages` stages goes beyond
 * the largest of these.
 * @example Object.keys(worstPlans(agent.config)) // ['chain:lookup']
 */
export function worstPlans(agent: ResolvedAgent): Record<string, PipelinePlan> {
  const planning = agent.planning;
  if (!planning) throw new LoopConfigError('loopchart: this agent has no planner');
  const { id, crossCheck } = planning.pipeline;
  const layouts = crossCheck && planning.maxStages >= 2 ? (['chain', 'pairs'] as const) : ['chain'];
  const plans: Record<string, PipelinePlan> = {};
  for (const [kind, entry] of Object.entries(planning.registry)) {
    for (const layout of layouts) {
      const width = layout === 'chain' ? 1 : 2;
      const stages: PipelineStage[] = [{ id: 'planner', loop: planning.loop.config }];
      for (let i = 0; i < planning.maxStages; i++) {
        const layer = Math.floor(i / width);
        const before =
          layer === 0
            ? ['planner']
            : stages
                .slice(1)
                .flatMap((s, j) => (Math.floor(j / width) === layer - 1 ? [s.id] : []));
        stages.push({ id: `stage${i + 1}`, dependsOn: before, loop: entry.loop });
      }
      plans[`${layout}:${kind}`] = {
        ...(id ? { id } : {}),
        stages,
        ...(crossCheck ? { crossCheck } : {}),
      };
    }
  }
  return plans;
}

const KINDS: readonly CallKind[] = ['attempt', 'validate', 'refine', 'fallback', 'total', 'model'];

/** The largest of a metric over the plans (`null`, unbounded, beats every number), and its plan. */
function largest(
  plans: Record<string, PipelineCertificate>,
  metric: (certificate: PipelineCertificate) => number | null,
): [number | null, string] {
  const rank = (value: number | null) => value ?? Infinity;
  let best: [number | null, string] | undefined;
  for (const [name, certificate] of Object.entries(plans)) {
    const value = metric(certificate);
    if (!best || rank(value) > rank(best[0])) best = [value, name];
  }
  return best as [number | null, string];
}

/**
 * The worst case of the run a shape makes: `certifyLoop` of the single-shot task or the task,
 * or for `pipeline` the planner and the largest plan the agent accepts (`worstPlans`).
 * @example certifyShape(agent.config, 'loop').calls.total.value
 */
export function certifyShape(agent: ResolvedAgent, shape: Shape): ShapeCertificate {
  if (shape === 'single-shot') return certifyLoop(agent.singleShotTask);
  if (shape === 'loop') return certifyLoop(agent.task);
  const plans = Object.fromEntries(
    Object.entries(worstPlans(agent)).map(([name, plan]) => [name, certifyPipeline(plan)]),
  );
  const [calls, callsBy] = largest(plans, (c) => c.calls.total);
  const [cost, costBy] = largest(plans, (c) => c.cost);
  const [timeMs, timeBy] = largest(plans, (c) => c.timeMs);
  return {
    kind: 'planned-pipeline',
    id: agent.planning?.pipeline.id ?? 'plannedPipeline',
    maxStages: agent.planning?.maxStages ?? 0,
    plans,
    calls: {
      ...(Object.fromEntries(KINDS.map((k) => [k, largest(plans, (c) => c.calls[k])[0]])) as Record<
        CallKind,
        number | null
      >),
      total: calls,
    },
    crossChecks: largest(plans, (c) => c.crossChecks)[0] as number,
    cost,
    timeMs,
    reachedBy: { calls: callsBy, cost: costBy, timeMs: timeBy },
    pauses: 'unbounded-by-design',
  };
}
