import type { LoopView } from '../../core/chart/loopView.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import { fingerprint } from '../../core/vocabulary/hashing.js';
import { parseVerdict } from '../../core/vocabulary/validation.js';

/** An event the path enumeration feeds the machine (`labelOf` gives its label). */
export interface ScriptedEvent {
  type: string;
  [key: string]: unknown;
}

/** What the event policy needs beyond the snapshot. */
export interface EventPolicy {
  /** Optional excursions a path may take: transient retries, clarifications, review retries. */
  detours: number;
  /** The machine has a `stalled` state, so repeated drafts are worth modelling. */
  canStall: boolean;
  /** Offer every way of ending in every refine cycle, not only the first two and the last. */
  everyCycle: boolean;
  candidate: (attempt: number) => unknown;
}

const labels = new WeakMap<object, string>();

/** The label of an event produced here (`'validate: correctable'`), or its type. */
export function labelOf(event: { type: string }): string {
  return labels.get(event) ?? event.type;
}

export const labelled = <E extends ScriptedEvent>(label: string, event: E): E => {
  labels.set(event, label);
  return event;
};
export const done = (step: string, output: unknown, label: string) =>
  labelled(label, { type: `xstate.done.actor.${step}`, output });
export const error = (step: StepName, failure: unknown, label: string) =>
  labelled(`${step}: ${label}`, { type: `xstate.error.actor.${step}`, error: failure });

export const SAME_DRAFT = 'the same draft again';
export const sameError = {
  valid: false,
  error: { severity: 'correctable', message: 'cite a source' },
};

const sameFingerprints = new Map<string, string>();

/** The fingerprint a validation of the same draft with the same error leaves, per stall mode. */
function sameFingerprint(view: LoopView): string | undefined {
  const { stall } = view.settings;
  if (!stall) return undefined;
  let print = sameFingerprints.get(stall.on);
  if (print === undefined) {
    const verdict = parseVerdict(sameError);
    print = fingerprint(stall.on === 'verdict' ? verdict : [SAME_DRAFT, verdict]);
    sameFingerprints.set(stall.on, print);
  }
  return print;
}

/** Whether the last validation (if any) saw the same draft with the same error: a stall can follow. */
export function onStallLane(view: LoopView, policy: EventPolicy): boolean {
  if (!policy.canStall) return false;
  return view.stall.repeats === 0 || view.stall.fingerprint === sameFingerprint(view);
}

/** Whether this refine cycle offers every way of ending: the first two, the last, or all of them. */
export function offersEndings(view: LoopView, policy: EventPolicy): boolean {
  const { iterations, settings } = view;
  return policy.everyCycle || iterations <= 1 || iterations >= settings.maxRetries;
}
