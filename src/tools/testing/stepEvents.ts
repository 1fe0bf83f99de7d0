import { type AnyMachineSnapshot, __unsafe_getAllOwnEventDescriptors as ownEvents } from 'xstate';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import { EVENT_OFFERS, type Standing } from './eventOffers.js';
import {
  type EventPolicy,
  offersEndings,
  onStallLane,
  type ScriptedEvent,
} from './scriptedEvents.js';

const ORDER = Object.keys(EVENT_OFFERS);
const rank = (type: string) => {
  const at = ORDER.indexOf(type);
  return at < 0 ? ORDER.length : at;
};

/**
 * The events worth feeding a loop snapshot. Which events its state accepts comes from the chart
 * (the state's own transitions, `invoke` done/error included); `EVENT_OFFERS` says what each one
 * carries, and an event it does not know (an `xstate.after.*` timer, say) is fed bare. Three
 * limits keep the state space linear in `maxRetries`: past the policy's `detours` only events
 * that make progress or end the run are offered; the first cycle may still ask any number of
 * questions, so the attempt ceiling stays reachable; and unless `everyCycle` is set, the middle
 * refine cycles (all but the first two and the last) offer only progress (a valid or correctable
 * verdict): no detour and not every way of ending.
 */
export function stepEvents(
  snapshot: AnyMachineSnapshot,
  detours: number,
  policy: EventPolicy,
): ScriptedEvent[] {
  const at = standing(snapshot, detours, policy);
  const accepted = [...new Set(ownEvents(snapshot))].sort((a, b) => rank(a) - rank(b));
  return accepted.flatMap((type) => EVENT_OFFERS[type]?.(at) ?? [{ type }]);
}

function standing(snapshot: AnyMachineSnapshot, detours: number, policy: EventPolicy): Standing {
  const view = loopView(snapshot) as LoopView;
  const { settings, attempts, iterations } = view;
  const atCeiling = attempts >= settings.maxAttempts;
  const costSpent = settings.maxCost !== null && view.cost >= settings.maxCost;
  const endings = offersEndings(view, policy) || atCeiling;
  const early = detours === 0 && iterations === 0 && attempts <= 1;
  const paused = view.pending !== undefined && detours <= policy.detours;
  return {
    view,
    policy,
    atCeiling,
    costSpent,
    rest: settings.maxCost === null || costSpent ? null : settings.maxCost - view.cost,
    lane: onStallLane(view, policy),
    endings,
    free: detours < policy.detours && endings,
    onlyQuestions: detours > policy.detours && !atCeiling && !costSpent,
    mayRefine:
      detours <= policy.detours || atCeiling || costSpent || iterations >= settings.maxRetries,
    mayAbort: snapshot.status === 'active' && (early || paused),
  };
}
