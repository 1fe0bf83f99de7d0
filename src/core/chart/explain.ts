import { type RouteRow, VERDICT_ROWS } from '../decisions/decisionTable.js';
import { RATIONALES, type RationaleExtras, type RationaleKey } from '../decisions/rationales.js';
import type { RouteFacts } from '../decisions/routeFacts.js';
import { ROUTE_GUARDS } from '../decisions/routeGuards.js';
import { flatString } from '../vocabulary/flatString.js';
import type { TraceDecision } from '../vocabulary/statuses.js';
import type { LoopContext } from './loopContext.js';
import { routeFactsOf } from './routeFactsOf.js';

/** One human sentence saying why the loop took `decision`, from what its context holds. */
export function explain(decision: TraceDecision, context: LoopContext): string {
  const facts = routeFactsOf(context);
  return flatString(RATIONALES[rationaleKey(decision, facts)](facts, extrasOf(context)));
}

/** `terminate_with_partial` has three rows; the first whose guard holds says why. */
function rationaleKey(decision: TraceDecision, facts: RouteFacts): RationaleKey {
  if (decision !== 'terminate_with_partial') return decision;
  const rows: readonly RouteRow[] = VERDICT_ROWS;
  const row = rows.find(
    (r) => r.target === decision && r.guard !== undefined && ROUTE_GUARDS[r.guard](facts),
  );
  return row?.because ?? 'noDiagnostic';
}

function extrasOf(context: LoopContext): RationaleExtras {
  const { pending } = context;
  return {
    stallOn: context.settings.stall?.on,
    stallFingerprint: context.stall.fingerprint,
    retryDelayMs: retryDelay(context),
    emptyReason: context.ledger.empty?.reason,
    abortReason: context.ledger.abortReason,
    question: pending?.kind === 'clarification' ? pending.question : undefined,
    deadline: context.ledger.deadlineHit && {
      deadlineMs: context.settings.deadlineMs,
      inFlight: context.ledger.deadlineHit.inFlight,
    },
  };
}

/** The delay before a transient retry: what the failure asked for, else the loop's `retryDelayMs`. */
export function retryDelay(context: LoopContext): number {
  return context.failure?.retryAfterMs ?? context.settings.retryDelayMs;
}
