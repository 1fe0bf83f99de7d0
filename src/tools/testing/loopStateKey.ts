import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import type { Verdict } from '../../core/vocabulary/validation.js';
import { type EventPolicy, offersEndings, onStallLane, SAME_DRAFT } from './scriptedEvents.js';

/** The excursions a path took to reach a snapshot: how many, and which kinds. */
interface Detours {
  count: number;
  kinds: string;
}

const NONE: Detours = { count: 0, kinds: '' };

/**
 * The bounded projection that makes traversal finite: a snapshot is keyed by its state and the
 * counters its guards read, never by the trace or the drafts themselves. Detours are remembered
 * per snapshot (a path's history is not in context); in the cycles that offer endings the key
 * names their kinds, so a transient retry and a clarification lead to separate ends. A final
 * state is also keyed by how it was reached (phase, verdict, failure), so each branch into it
 * gets its own path.
 */
export function createLoopStateKey(policy: EventPolicy) {
  const taken = new WeakMap<object, Detours>();
  const detoursOf = (snapshot: AnyMachineSnapshot) => (taken.get(snapshot) ?? NONE).count;

  const serializeState = (
    snapshot: AnyMachineSnapshot,
    event?: EventObject,
    previous?: AnyMachineSnapshot,
  ): string => {
    let detours = taken.get(snapshot);
    if (detours === undefined) {
      const before = (previous && taken.get(previous)) ?? NONE;
      const kind = previous && event ? detourKind(previous, event, snapshot) : undefined;
      detours = kind ? { count: before.count + 1, kinds: addKind(before.kinds, kind) } : before;
      taken.set(snapshot, detours);
    }
    return keyOf(snapshot, detours, policy);
  };
  return { serializeState, detoursOf };
}

function addKind(kinds: string, kind: string): string {
  const all = new Set(kinds ? kinds.split('|') : []);
  all.add(kind);
  return [...all].sort().join('|');
}

function detourKind(
  previous: AnyMachineSnapshot,
  event: EventObject,
  next: AnyMachineSnapshot,
): string | undefined {
  if (next.value === 'waitingToRetry') {
    return `retry ${loopView(next)?.failure?.step}`;
  }
  if (next.value === 'awaitingClarification') return 'clarify';
  if (previous.value !== 'awaitingReview') return undefined;
  if (event.type === 'review.retry') return event.type;
  if (event.type === 'review.modify') return 'candidate' in event ? 'edit candidate' : 'edit input';
  return undefined;
}

function keyOf(snapshot: AnyMachineSnapshot, detours: Detours, policy: EventPolicy): string {
  const view = loopView(snapshot) as LoopView;
  const { settings, iterations } = view;
  const cost = settings.maxCost === null ? 0 : Math.min(1, view.cost / settings.maxCost).toFixed(2);
  const endings = offersEndings(view, policy) || snapshot.status === 'done';
  const counters = [iterations, view.attempts, detours.count, endings ? detours.kinds : 0, cost];
  if (snapshot.status === 'done') {
    const failure = view.failure;
    return JSON.stringify([
      snapshot.value,
      ...counters,
      view.fallbackRuns,
      view.phase,
      verdictClass(view.verdict),
      failure ? [failure.step, failure.kind, failure.effect, failure.retryAfterMs ?? 0] : 0,
    ]);
  }
  return JSON.stringify([
    snapshot.value,
    ...counters,
    view.transientRetried,
    snapshot.value === 'waitingToRetry' ? view.failure?.step : 0,
    policy.canStall
      ? [view.stall.repeats, onStallLane(view, policy), view.candidate === SAME_DRAFT]
      : 0,
    snapshot.value === 'awaitingReview' ? verdictClass(view.verdict) : 0,
  ]);
}

/** The row of the decision table a verdict falls in. */
export function verdictClass(verdict: Verdict | undefined): string {
  if (verdict === undefined) return 'none';
  if ('malformed' in verdict) return 'malformed';
  if (verdict.valid) return 'valid';
  return verdict.error ? verdict.error.severity : 'no diagnostic';
}
