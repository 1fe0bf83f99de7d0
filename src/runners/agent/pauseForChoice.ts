import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { ResolvedAgent } from './agentConfig.js';
import type { AgentOutcome } from './agentOutcome.js';
import type { ShapeDecision } from './routeShape.js';
import { shapeChoiceBrief } from './shapeChoice.js';

/**
 * Ends an agent run before any shape runs: builds the owner choice brief and, with a store,
 * saves it as the run's record (state `awaitingShapeChoice`), so `resumeAgent` with a
 * `shape.choose` answer runs the chosen shape, in this process or another.
 * @example return pauseForChoice(agent.config, request, decision, { store, runId });
 */
export async function pauseForChoice(
  agent: ResolvedAgent,
  request: string,
  decision: ShapeDecision & { disagreement: NonNullable<ShapeDecision['disagreement']> },
  { store, runId }: { store?: CheckpointStore | undefined; runId?: string | undefined },
): Promise<AgentOutcome> {
  const startedAt = Date.now();
  const choice = shapeChoiceBrief(agent, request, decision);
  if (store && runId) {
    await store.save({
      runId,
      seq: 1,
      status: 'paused',
      state: 'awaitingShapeChoice',
      machineId: agent.id,
      updatedAt: Date.now(),
      data: JSON.stringify(choice),
    });
  }
  return {
    status: 'paused',
    ok: false,
    shape: undefined,
    decision,
    planning: undefined,
    plan: undefined,
    pipeline: undefined,
    trace: [
      {
        seq: 1,
        state: 'routing',
        status: 'paused',
        rationale: decision.reasons.join('; '),
        startedAt,
        durationMs: 0,
      },
    ],
    message: choice.question,
    choice,
    ...(runId ? { runId } : {}),
  };
}
