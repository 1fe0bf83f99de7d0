import { z } from 'zod';
import {
  compileLoop,
  isLoopPlan,
  type LoopPlan,
  withPlanId,
} from '../../core/chart/compileLoop.js';
import { isIdempotent } from '../../core/chart/standInSteps.js';
import { DEFAULT_DEADLINE_MS, type LoopConfig } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import { fingerprint } from '../../core/vocabulary/hashing.js';
import { isLoopConfigError, LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';
import { type PipelinePlan, type PipelineStage, pipelinePlanSchema } from './pipelinePlan.js';
import { findCycles, type PlanNode, planLayers } from './planLayers.js';

const STEP_NAMES: readonly StepName[] = ['attempt', 'validate', 'refine', 'fallback'];

/** A validated stage with its defaults filled in and its layer (1-based) known. */
export interface ResolvedStage extends PipelineStage {
  dependsOn: readonly string[];
  checkpoint: boolean;
  whenDependencySkipped: 'skip' | 'run';
  layer: number;
  /** Every step its loop has is declared idempotent, so a run cut short by a crash may run again. */
  rerunnable: boolean;
  /** Its loop's `deadlineMs`: what bounds the checks of answers to it (`null`: none). */
  deadlineMs: number | null;
  /** The stage's loop compiled once, its chart named after the stage unless the loop names it. */
  plan: LoopPlan;
}

/** A plan that passed validation: stages by id and the layers in running order. */
export interface ResolvedPlan {
  id: string;
  stages: Readonly<Record<string, ResolvedStage>>;
  layers: readonly (readonly string[])[];
  crossCheck: PipelinePlan['crossCheck'];
  /** The cross-check's time limit in ms. */
  crossCheckTimeoutMs: number;
  /** Fingerprint of the plan's shape (ids, dependencies, checkpoints): a record of another plan is refused. */
  key: string;
  /**
   * How long the pipeline waits on its store (a load, a save): the longest `deadlineMs` of its
   * stage loops, whose steps wait on those saves; `null` when a stage loop has no deadline.
   */
  storeWaitMs: number | null;
}

const SUBJECT = 'pipeline plan';

/**
 * Validates a plan and orders it into layers. A malformed stage, a duplicate or unknown stage id,
 * a cycle in `dependsOn` or a bad loop config throws `LoopConfigError` naming the stages.
 * @example const { layers } = resolvePlan({ stages: [{ id: 'a', loop }, { id: 'b', dependsOn: ['a'], loop }] });
 */
export function resolvePlan(plan: PipelinePlan): ResolvedPlan {
  const parsed = pipelinePlanSchema.safeParse(plan, { reportInput: true });
  if (!parsed.success) throw configErrorFrom(SUBJECT, parsed.error);
  const stages = parsed.data.stages;
  const nodes: PlanNode[] = stages.map((stage) => ({
    id: stage.id,
    dependsOn: [...new Set(stage.dependsOn ?? [])],
  }));
  const graphIssues = [...duplicateIds(nodes), ...unknownDependencies(nodes)];
  if (graphIssues.length === 0) graphIssues.push(...cycles(nodes));
  if (graphIssues.length > 0) throw configErrorFrom(SUBJECT, new z.ZodError(graphIssues));

  const { layers } = planLayers(nodes);
  const layerOf = new Map(
    layers.flatMap((ids, index) => ids.map((id) => [id, index + 1] as const)),
  );
  const deadlines: (number | null)[] = [];
  const resolved = stages.map((_, index): ResolvedStage => {
    const stage = plan.stages[index] as PipelineStage;
    const loopPlan = stagePlan(stage, index);
    const { settings } = loopPlan;
    deadlines.push(settings.deadlineMs);
    return {
      ...stage,
      loop: loopPlan.config,
      plan: loopPlan,
      dependsOn: nodes[index]?.dependsOn ?? [],
      checkpoint: stage.checkpoint ?? false,
      whenDependencySkipped: stage.whenDependencySkipped ?? 'skip',
      layer: layerOf.get(stage.id) ?? 0,
      // as a loop's own resume: a step the config lacks (loopchart's stand-in refine, no fallback) acts on nothing
      rerunnable: STEP_NAMES.every((step) => isIdempotent(step, loopPlan.steps, settings)),
      deadlineMs: settings.deadlineMs,
    };
  });
  return {
    id: parsed.data.id ?? 'pipeline',
    stages: Object.fromEntries(resolved.map((stage) => [stage.id, stage])),
    layers,
    crossCheck: plan.crossCheck,
    crossCheckTimeoutMs: plan.crossCheckTimeoutMs ?? DEFAULT_DEADLINE_MS,
    storeWaitMs: deadlines.includes(null) ? null : Math.max(...(deadlines as number[])),
    key: fingerprint(
      resolved
        .map(({ id, dependsOn, checkpoint }) => ({
          id,
          dependsOn: [...dependsOn].sort(),
          checkpoint,
        }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ),
  };
}

type Issue = z.core.$ZodIssueCustom;
const issue = (path: (string | number)[], message: string): Issue => ({
  code: 'custom',
  path,
  message,
});

function duplicateIds(nodes: PlanNode[]): Issue[] {
  const first = new Map<string, number>();
  return nodes.flatMap((node, index) => {
    const earlier = first.get(node.id);
    if (earlier === undefined) {
      first.set(node.id, index);
      return [];
    }
    return [
      issue(
        ['stages', index, 'id'],
        `duplicate stage id '${node.id}' (stages.${earlier} has it too)`,
      ),
    ];
  });
}

function unknownDependencies(nodes: PlanNode[]): Issue[] {
  const ids = new Set(nodes.map((node) => node.id));
  const known = [...ids].sort().join(', ');
  return nodes.flatMap((node, index) =>
    node.dependsOn.flatMap((dep, at) =>
      ids.has(dep)
        ? []
        : [
            issue(
              ['stages', index, 'dependsOn', at],
              `stage '${node.id}' depends on '${dep}', which is not a stage of this plan (stages: ${known})`,
            ),
          ],
    ),
  );
}

function cycles(nodes: PlanNode[]): Issue[] {
  const { blocked } = planLayers(nodes);
  if (blocked.length === 0) return [];
  const found = findCycles(nodes.filter((node) => blocked.includes(node.id)));
  const onCycle = new Set(found.flat());
  const behind = blocked.filter((id) => !onCycle.has(id));
  return [
    ...found.map((cycle) =>
      issue(
        ['stages'],
        cycle.length === 2
          ? `stage '${cycle[0]}' depends on itself`
          : `dependsOn has a cycle: ${cycle.join(' → ')}`,
      ),
    ),
    ...(behind.length > 0
      ? [
          issue(
            ['stages'],
            `${behind.length === 1 ? 'stage' : 'stages'} ${behind.map((id) => `'${id}'`).join(', ')} ${behind.length === 1 ? 'waits' : 'wait'} on a cycle and can never start`,
          ),
        ]
      : []),
  ];
}

function stagePlan(stage: PipelineStage, index: number): LoopPlan {
  const loop: unknown = stage.loop;
  if (isLoopPlan(loop)) return withPlanId(loop, loop.config.id ?? stage.id);
  const config = loop as LoopConfig;
  try {
    return compileLoop({ ...config, id: config.id ?? stage.id });
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    const detail = error.message.split('\n').slice(1).join('\n');
    throw new LoopConfigError(
      `loopchart: invalid ${SUBJECT}\n  - stages.${index}.loop (stage '${stage.id}') is not a valid loop config:\n${detail.replace(/^/gm, '  ')}`,
      error.issues.map((inner) => ({ ...inner, path: ['stages', index, 'loop', ...inner.path] })),
    );
  }
}
