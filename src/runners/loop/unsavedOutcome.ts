import { buildOutcome } from '../../core/chart/buildOutcome.js';
import type { LoopContext } from '../../core/chart/loopContext.js';
import type { LoopOutcome, PendingOperation } from '../../core/vocabulary/outcome.js';

/**
 * The outcome of a run whose deadline ran out while a save of its checkpoint was still pending
 * (SPEC §14): `ceiling_stop` with `cap: 'deadlineMs'` and `waitingFor` naming that save. The run
 * may have got further (even to an end) in memory, but nothing past `lastSaved` is known to be
 * stored, so nothing past it is reported as an end: the candidate it reached is the `partial`.
 */
export function unsavedOutcome(
  context: LoopContext,
  state: string,
  waitingFor: PendingOperation,
): LoopOutcome {
  const hit = context.ledger.deadlineHit ?? { inFlight: null };
  const stopped = { ...context, ledger: { ...context.ledger, deadlineHit: hit } };
  const { checkpoint, lastSaved } = waitingFor;
  const stored = lastSaved === 0 ? 'no checkpoint of this run' : `checkpoint #${lastSaved}`;
  const message = `The run's wall-clock budget (deadlineMs ${context.settings.deadlineMs} ms) ran out while loopchart waited for the store to save checkpoint #${checkpoint} (the run was in ${state}); the store acknowledged ${stored} last. The run stopped; this outcome is not saved.`;
  const outcome = buildOutcome('ceiling_stop', stopped) as Extract<
    LoopOutcome,
    { status: 'ceiling_stop' }
  >;
  return {
    ...outcome,
    rationale: message,
    error: { ...outcome.error, message, waitingFor },
  };
}
