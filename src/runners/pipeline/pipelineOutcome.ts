import type { PipelineContext, StageReport } from './pipelineContext.js';
import type { StageId, StageResults } from './pipelinePlan.js';
import { resultsOf } from './pipelineUpdates.js';

/** How a pipeline ended: what happened to each stage, and the results of those that finished. */
export interface PipelineOutcome<R extends Record<string, unknown> = Record<string, unknown>> {
  /** `completed`: every layer was worked through (stages may have been skipped); `aborted`: stopped. */
  status: 'completed' | 'aborted';
  /** True when the pipeline completed and every stage succeeded. */
  ok: boolean;
  stages: Record<StageId<R>, StageReport>;
  /** The candidate of every stage that succeeded with one, by stage id. */
  results: StageResults<R>;
  message: string;
  abortReason?: string;
}

/** The outcome of a pipeline that reached its final state `status`. */
export function buildPipelineOutcome(
  status: PipelineOutcome['status'],
  context: PipelineContext,
): PipelineOutcome {
  const ids = Object.keys(context.stages);
  const byStatus = (wanted: StageReport['status']) =>
    ids.filter((id) => context.stages[id]?.status === wanted);
  const succeeded = byStatus('succeeded');
  const others = (['skipped', 'failed', 'aborted', 'not_started'] as const)
    .map((wanted) => [wanted, byStatus(wanted)] as const)
    .filter(([, list]) => list.length > 0)
    .map(([wanted, list]) => `${wanted.replace('_', ' ')}: ${list.join(', ')}`);
  const tally = [`${succeeded.length} of ${ids.length} stages succeeded`, ...others].join('; ');
  return {
    status,
    ok: status === 'completed' && succeeded.length === ids.length,
    stages: context.stages,
    results: resultsOf(context, ids),
    message: status === 'aborted' ? `aborted (${context.abortReason}); ${tally}` : tally,
    ...(status === 'aborted' && context.abortReason ? { abortReason: context.abortReason } : {}),
  };
}
