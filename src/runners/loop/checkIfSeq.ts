import { CheckpointError } from '../../stores/kit/CheckpointError.js';

/**
 * Refuses with `conflict` an answer meant for checkpoint `ifSeq` of a run that is now at `seq`
 * (it moved on since that pause); without `ifSeq` anything goes.
 * @example checkIfSeq('r1', stored.seq, options.ifSeq);
 */
export function checkIfSeq(runId: string, seq: number, ifSeq: number | undefined): void {
  if (ifSeq === undefined || ifSeq === seq) return;
  throw new CheckpointError(
    'conflict',
    runId,
    `loopchart: run '${runId}' is at checkpoint #${seq}, not #${ifSeq} (ifSeq): it moved on since that pause, so the answer was not applied`,
  );
}
