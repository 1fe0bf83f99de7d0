import { z } from 'zod';
import { DEFAULT_DEADLINE_MS, resolveConfig } from '../config.js';
import { fingerprint } from '../hashing.js';
import { isLoopConfigError, LoopConfigError } from '../LoopConfigError.js';
import { configErrorFrom } from '../zodIssues.js';
import { type PipelinePlan, type PipelineStage, pipelinePlanSchema } from './pipelinePlan.js';
import { findCycles, type PlanNode, planLayers } from './planLayers.js';

/** A validated stage with its defaults filled in and its layer (1-based) known. */
export interface ResolvedStage extends PipelineStage {
  dependsOn: readonly string[];
  checkpoint: boolean;
  whenDependencySkipped: 'skip' | 'run';
  layer: number;
  /** Every step of its loop is declared idempotent, so a run cut short by a crash may run again. */
  rerunnable: boolean;
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
  const resolved = stages.map((_, index): ResolvedStage => {
    const stage = plan.stages[index] as PipelineStage;
    const settings = loopSettings(stage, index);
    return {
      ...stage,
      dependsOn: nodes[index]?.dependsOn ?? [],
      checkpoint: stage.checkpoint ?? false,
      whenDependencySkipped: stage.whenDependencySkipped ?? 'skip',
      layer: layerOf.get(stage.id) ?? 0,
      rerunnable: Object.values(settings.idempotent).every(Boolean),
    };
  });
  return {
    id: parsed.data.id ?? 'pipeline',
    stages: Object.fromEntries(resolved.map((stage) => [stage.id, stage])),
    layers,
    crossCheck: plan.crossCheck,
    crossCheckTimeoutMs: plan.crossCheckTimeoutMs ?? DEFAULT_DEADLINE_MS,
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

function loopSettings(stage: PipelineStage, index: number) {
  try {
    return resolveConfig(stage.loop);
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    const detail = error.message.split('\n').slice(1).join('\n');
    throw new LoopConfigError(
      `loopchart: invalid ${SUBJECT}\n  - stages.${index}.loop (stage '${stage.id}') is not a valid loop config:\n${detail.replace(/^/gm, '  ')}`,
      error.issues.map((inner) => ({ ...inner, path: ['stages', index, 'loop', ...inner.path] })),
    );
  }
}
