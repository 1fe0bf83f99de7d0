/** Every terminal status of a loop: one final state of the machine each (SPEC §3). */
export const LOOP_STATUSES = [
  'proceed',
  'fallback',
  'terminate_with_partial',
  'iteration_exhausted',
  'stalled',
  'policy_stop',
  'permanent_failure',
  'retry_exhausted',
  'unknown_outcome',
  'ceiling_stop',
  'budget_stop',
  'empty',
  'aborted',
] as const;

export type LoopStatus = (typeof LOOP_STATUSES)[number];

/** The statuses whose outcome is `ok`: the loop produced what was asked, or honestly nothing. */
export const OK_STATUSES = [
  'proceed',
  'fallback',
  'empty',
] as const satisfies readonly LoopStatus[];
export type OkStatus = (typeof OK_STATUSES)[number];
export type StopStatus = Exclude<LoopStatus, OkStatus>;

/** The four answers of the decision table (SPEC §1). */
export const DECISIONS = ['proceed', 'refine', 'fallback', 'terminate_with_partial'] as const;
export type Decision = (typeof DECISIONS)[number];

/** Every decision the running machine records in its trace. */
export type TraceDecision = Decision | StopStatus | 'empty' | 'retry' | 'review' | 'clarify';

export function isOkStatus(status: LoopStatus): status is OkStatus {
  return (OK_STATUSES as readonly string[]).includes(status);
}
