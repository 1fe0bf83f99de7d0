import type {
  CallKind,
  CertifyOptions,
  LoopCertificate,
} from '../../core/certificate/certificateTypes.js';
import { certifyLoop } from '../../core/certificate/certifyLoop.js';
import type { LoopPlan } from '../../core/chart/compileLoop.js';
import { DEFAULT_DEADLINE_MS, type LoopConfig } from '../../core/vocabulary/config.js';
import type { PipelinePlan } from './pipelinePlan.js';
import { planLayers } from './planLayers.js';

/**
 * A pipeline's worst case, composed from its stages' certificates: calls and cost add up over
 * every stage; time adds up over the layers, each as long as its slowest stage plus its
 * cross-check (the stages of a layer run together).
 */
export interface PipelineCertificate {
  kind: 'pipeline';
  id: string;
  layers: string[][];
  stages: Record<string, LoopCertificate>;
  calls: Record<CallKind, number | null>;
  /** Cross-checks of layers of several stages: one call each. */
  crossChecks: number;
  cost: number | null;
  timeMs: number | null;
  /** The slowest stage of each layer: the stages the time bound runs through. */
  criticalPath: string[];
  /** A failed stage and a checkpoint pause for a person; what a person asks for is not counted. */
  pauses: 'unbounded-by-design';
}

/** Per-stage ceilings: the same for every stage, or per stage id. */
export interface CertifyPipelineOptions extends CertifyOptions {
  stages?: Record<string, CertifyOptions>;
}

const sum = (values: (number | null)[]) =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v as number), 0);

/**
 * The worst case of a pipeline plan over every path of every stage loop.
 * @example certifyPipeline({ stages: [{ id: 'draft', loop }, { id: 'check', dependsOn: ['draft'], loop }] }).timeMs
 */
export function certifyPipeline(
  plan: PipelinePlan,
  options: CertifyPipelineOptions = {},
): PipelineCertificate {
  const { stages: perStage = {}, ...shared } = options;
  const stages = Object.fromEntries(
    plan.stages.map((stage) => [
      stage.id,
      // a stage's plan is a LoopPlan of its own types, which AnyLoopPlan keeps only in part
      certifyLoop(stage.loop as LoopConfig | LoopPlan, { ...shared, ...perStage[stage.id] }),
    ]),
  );
  const { layers } = planLayers(
    plan.stages.map((stage) => ({ id: stage.id, dependsOn: stage.dependsOn ?? [] })),
  );
  const certificate = (id: string) => stages[id] as LoopCertificate;
  const crossCheckMs = plan.crossCheck ? (plan.crossCheckTimeoutMs ?? DEFAULT_DEADLINE_MS) : 0;
  const checked = layers.filter((layer) => plan.crossCheck && layer.length > 1);
  const criticalPath = layers.map(
    (layer) =>
      layer.reduce((slowest, id) =>
        (certificate(id).timeMs.value ?? Infinity) > (certificate(slowest).timeMs.value ?? Infinity)
          ? id
          : slowest,
      ) as string,
  );
  const kinds: CallKind[] = ['attempt', 'validate', 'refine', 'fallback', 'total', 'model'];
  const ids = plan.stages.map((stage) => stage.id);
  return {
    kind: 'pipeline',
    id: plan.id ?? 'pipeline',
    layers,
    stages,
    calls: Object.fromEntries(
      kinds.map((kind) => [kind, sum(ids.map((id) => certificate(id).calls[kind].value))]),
    ) as Record<CallKind, number | null>,
    crossChecks: checked.length,
    cost: sum(ids.map((id) => certificate(id).cost.value)),
    timeMs: sum([
      ...criticalPath.map((id) => certificate(id).timeMs.value),
      checked.length * crossCheckMs,
    ]),
    criticalPath,
    pauses: 'unbounded-by-design',
  };
}
