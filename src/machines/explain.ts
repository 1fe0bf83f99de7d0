import { type RouteRow, VERDICT_ROWS } from '../guards/decisionTable.js';
import { RATIONALES, type RationaleFacts, type RationaleKey } from '../guards/rationales.js';
import { ROUTE_GUARDS } from '../guards/routeGuards.js';
import type { TraceDecision } from '../statuses.js';
import type { LoopContext } from './loopContext.js';
import { routeFactsOf } from './routeFactsOf.js';

/** One human sentence saying why the loop took `decision`, from what its context holds. */
export function explain(decision: TraceDecision, context: LoopContext): string {
  const facts = rationaleFactsOf(context);
  return RATIONALES[rationaleKey(decision, facts)](facts);
}

/** `terminate_with_partial` has three rows; the first whose guard holds says why. */
function rationaleKey(decision: TraceDecision, facts: RationaleFacts): RationaleKey {
  if (decision !== 'terminate_with_partial') return decision;
  const rows: readonly RouteRow[] = VERDICT_ROWS;
  const row = rows.find(
    (r) => r.target === decision && r.guard !== undefined && ROUTE_GUARDS[r.guard](facts),
  );
  return row?.because ?? 'noDiagnostic';
}

function rationaleFactsOf(context: LoopContext): RationaleFacts {
  const { settings, pending } = context;
  return {
    ...routeFactsOf(context),
    stallOn: settings.stall?.on,
    stallFingerprint: context.stall.fingerprint,
    retryDelayMs: retryDelay(context),
    emptyReason: context.ledger.empty?.reason,
    abortReason: context.ledger.abortReason,
    question: pending?.kind === 'clarification' ? pending.question : undefined,
  };
}

/** The delay before a transient retry: what the failure asked for, else the loop's `retryDelayMs`. */
export function retryDelay(context: LoopContext): number {
  return context.failure?.retryAfterMs ?? context.settings.retryDelayMs;
}
