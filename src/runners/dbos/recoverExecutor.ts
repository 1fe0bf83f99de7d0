import { DBOS } from '@dbos-inc/dbos-sdk';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';

/**
 * Hands the unfinished workflows of a dead DBOS executor to the live ones: every `PENDING`
 * workflow recorded for `executorId` is resumed on the queue it came from (runs started without
 * a queue go to DBOS's internal one), so whichever process dequeues it first recovers it from its
 * journal. Call it only for an executor you know is dead: resuming a live executor's workflow
 * runs it twice at once. A restarted process recovers its own executor's runs at `DBOS.launch()`.
 * Returns the ids it resumed.
 * @example await recoverExecutor('worker-3'); // worker-3's machine is gone for good
 */
export async function recoverExecutor(executorId: string): Promise<string[]> {
  if (typeof executorId !== 'string' || executorId.length === 0) {
    throw new LoopConfigError(
      'loopchart: recoverExecutor\n  - executorId: must be a non-empty string',
    );
  }
  if (executorId === DBOS.executorID) {
    throw new LoopConfigError(
      `loopchart: recoverExecutor\n  - executorId: '${executorId}' is this process; DBOS.launch() already recovered its runs`,
    );
  }
  const pending = await DBOS.listWorkflows({ status: 'PENDING', executorId, loadInput: false });
  const byQueue = new Map<string | undefined, string[]>();
  for (const run of pending) {
    const ids = byQueue.get(run.queueName) ?? [];
    ids.push(run.workflowID);
    byQueue.set(run.queueName, ids);
  }
  for (const [queueName, ids] of byQueue) {
    await DBOS.resumeWorkflows(ids, queueName === undefined ? {} : { queueName });
  }
  return pending.map((run) => run.workflowID);
}
