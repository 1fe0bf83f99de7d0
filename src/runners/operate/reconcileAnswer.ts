import { z } from 'zod';
import { CheckpointError } from '../../stores/kit/CheckpointError.js';
import { jsonProblem } from '../../stores/kit/jsonProblem.js';

/**
 * The answer to a parked run (SPEC §16): the step in flight `happened` (and returned `result`,
 * which the run takes as the step's return value without calling it), `did_not_happen` (run it
 * once more), or `give_up` (end the run `unknown_outcome`, as without parking).
 */
export type ReconcileAnswer =
  | { type: 'outcome.happened'; result: unknown }
  | { type: 'outcome.did_not_happen' }
  | { type: 'outcome.give_up'; reason?: string };

const answerSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('outcome.happened'), result: z.unknown() }),
  z.strictObject({ type: z.literal('outcome.did_not_happen') }),
  z.strictObject({ type: z.literal('outcome.give_up'), reason: z.string().max(2000).optional() }),
]);

/** Parses an untrusted answer to a parked run; refuses it with `invalid_answer`. */
export function checkReconcileAnswer(runId: string, answer: unknown): ReconcileAnswer {
  const parsed = answerSchema.safeParse(answer);
  const refuse = (why: string) =>
    new CheckpointError(
      'invalid_answer',
      runId,
      `loopchart: the answer to parked run '${runId}' ${why}; nothing was run`,
    );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'answer';
    throw refuse(
      `is not outcome.happened { result }, outcome.did_not_happen or outcome.give_up { reason? } (${where}: ${issue?.message})`,
    );
  }
  const value = parsed.data as ReconcileAnswer;
  if (value.type === 'outcome.happened') {
    if (value.result === undefined) throw refuse('says it happened but gives no result');
    const problem = jsonProblem({ result: value.result });
    if (problem) throw refuse(`holds a result a checkpoint cannot store: its ${problem}`);
  }
  return value;
}
