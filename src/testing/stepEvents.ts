import { type AnyMachineSnapshot, __unsafe_getAllOwnEventDescriptors as ownEvents } from 'xstate';
import { DeadlineExceeded, deadlineRecord } from '../deadline/deadline.js';
import {
  type FailureEffect,
  type LoopStepFailure,
  permanentFailure,
  policyRejection,
  type StepName,
  transientFailure,
  uncertainSideEffect,
} from '../failures.js';
import { fingerprint } from '../hashing.js';
import { type LoopView, loopView } from '../machines/loopView.js';
import { clarificationRequest, emptyResult, withCost } from '../stepResults.js';
import { parseVerdict } from '../validation.js';
import { STEP_ACTORS } from './takenTransitions.js';

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

const labelled = <E extends ScriptedEvent>(label: string, event: E): E => {
  labels.set(event, label);
  return event;
};
const done = (step: string, output: unknown, label: string) =>
  labelled(label, { type: `xstate.done.actor.${step}`, output });
const error = (step: StepName, failure: unknown, label: string) =>
  labelled(`${step}: ${label}`, { type: `xstate.error.actor.${step}`, error: failure });

export const SAME_DRAFT = 'the same draft again';
const sameError = { valid: false, error: { severity: 'correctable', message: 'cite a source' } };

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

/**
 * The events worth feeding a loop snapshot: realistic done/error events for the invoked step and
 * the human events of a paused loop. Three limits keep the state space linear in `maxRetries`:
 * past the policy's `detours` only events that make progress or end the run are offered; the
 * first cycle may still ask any number of questions, so the attempt ceiling stays reachable; and
 * unless `everyCycle` is set, the middle refine cycles (all but the first two and the last) offer
 * only progress (a valid or correctable verdict): no detour and not every way of ending.
 */
export function stepEvents(
  snapshot: AnyMachineSnapshot,
  detours: number,
  policy: EventPolicy,
): ScriptedEvent[] {
  const view = loopView(snapshot) as LoopView;
  const { settings, attempts, iterations: retryCount } = view;
  const atCeiling = attempts >= settings.maxAttempts;
  const costSpent = settings.maxCost !== null && view.cost >= settings.maxCost;
  const rest = settings.maxCost === null || costSpent ? null : settings.maxCost - view.cost;
  const lane = onStallLane(view, policy);
  const endings = offersEndings(view, policy) || atCeiling;
  const free = detours < policy.detours && endings;
  const onlyQuestions = detours > policy.detours && !atCeiling && !costSpent;
  const mayRefine =
    detours <= policy.detours || atCeiling || costSpent || retryCount >= settings.maxRetries;
  const events: ScriptedEvent[] = [];
  const add = (...more: ScriptedEvent[]) => events.push(...more);
  const value = snapshot.value;
  if (value === 'attempting') {
    const draft = policy.candidate(attempts);
    if (!onlyQuestions) add(done('attempt', draft, 'attempt'));
    if (lane && !onlyQuestions) add(done('attempt', SAME_DRAFT, 'attempt (same draft)'));
    if (free || retryCount === 0) add(...questions(rest));
    if (endings && !onlyQuestions) {
      if (rest !== null)
        add(done('attempt', withCost(draft, rest), `attempt (spends the budget: ${rest})`));
      add(done('attempt', emptyResult('no record matches the request'), 'attempt: nothing found'));
    }
    if (!onlyQuestions) add(...failures('attempt', view, free || atCeiling || costSpent, endings));
  } else if (value === 'validating') {
    const check = `${attempts}.${view.trace.length}`;
    add(done('validate', { valid: true }, 'valid'));
    if (mayRefine)
      add(
        done(
          'validate',
          {
            valid: false,
            error: { severity: 'correctable', message: `add the missing total (check ${check})` },
          },
          'correctable',
        ),
      );
    if (lane) add(done('validate', sameError, 'correctable (same error)'));
    if (endings) {
      add(
        done(
          'validate',
          {
            valid: false,
            error: { severity: 'fundamental', message: 'the request asks for a different report' },
          },
          'fundamental',
        ),
      );
      add(done('validate', { valid: false }, 'no diagnostic'));
      add(done('validate', { verdict: 'looks fine to me', confidence: 0.9 }, 'malformed verdict'));
    }
    add(...failures('validate', view, free || costSpent, endings));
  } else if (value === 'refining') {
    add(done('refine', { task: 'summarise the memo', hint: `revision ${retryCount}` }, 'refine'));
    add(...failures('refine', view, free || costSpent, endings));
  } else if (value === 'fallingBack') {
    add(done('fallback', 'a template answer', 'fallback'));
    add(...failures('fallback', view, true, true));
  } else if (value === 'waitingToRetry') {
    add(done('retryDelay', { deadline: false }, 'retry wait'));
    if (endings) add(done('retryDelay', { deadline: true }, 'retry wait: deadlineMs ran out'));
  } else if (value === 'awaitingClarification') {
    add(labelled('answer', { type: 'clarification.answer', answer: '2025' }));
  } else if (value === 'awaitingReview') {
    add(labelled('review: continue', { type: 'review.continue' }));
    add(labelled('review: abort', { type: 'review.abort', reason: 'the reviewer stopped it' }));
    if (free || lane)
      add(labelled('review: retry', { type: 'review.retry', feedback: 'shorter, please' }));
    if (lane && view.stall.repeats < (settings.stall?.after ?? 0)) {
      add(
        labelled('review: resubmit the same draft', {
          type: 'review.modify',
          candidate: SAME_DRAFT,
        }),
      );
    }
    if (free) {
      add(
        labelled('review: modify input', {
          type: 'review.modify',
          input: { task: 'summarise the memo in 3 lines' },
        }),
      );
      add(
        labelled('review: modify candidate', {
          type: 'review.modify',
          candidate: 'an edited draft',
        }),
      );
    }
  }
  const early = detours === 0 && retryCount === 0 && attempts <= 1;
  const paused = view.pending !== undefined && detours <= policy.detours;
  if (snapshot.status === 'active' && (early || paused)) {
    add(labelled('abort', { type: 'loop.abort', reason: 'the user cancelled' }));
  }
  const known = new Set(events.map((event) => event.type));
  for (const type of ownEvents(snapshot)) {
    if (!known.has(type) && !HANDLED.has(type)) add({ type });
  }
  return events;
}

function questions(rest: number | null): ScriptedEvent[] {
  const question = clarificationRequest({
    question: 'Which fiscal year?',
    options: ['2025', '2026'],
  });
  return [
    done('attempt', question, 'attempt: asks a question'),
    ...(rest === null
      ? []
      : [
          done(
            'attempt',
            withCost(question, rest),
            `attempt: asks a question (spends the budget: ${rest})`,
          ),
        ]),
  ];
}

// Events this policy decides on; any other own event (an `xstate.after.*` timer, say) is kept bare.
const HANDLED = new Set([
  ...STEP_ACTORS.flatMap((step) => [`xstate.done.actor.${step}`, `xstate.error.actor.${step}`]),
  'loop.abort',
  'clarification.answer',
  'review.continue',
  'review.modify',
  'review.retry',
  'review.abort',
]);

// Failures are immutable values; making them once spares an Error (and its stack) per event.
const thrown = {
  policy: policyRejection('403: this account may not read payroll data'),
  permanent: permanentFailure('404: the memo was deleted'),
  uncertain: uncertainSideEffect('the request timed out after it was sent'),
  unknownEffect: transientFailure('socket hang up', { effect: 'unknown' }),
  noEffect: transientFailure('429: rate limited', { effect: 'none' }),
};
const cutOff = Object.fromEntries(
  (['attempt', 'validate', 'refine', 'fallback'] as const).map((step) => [
    step,
    deadlineRecord(new DeadlineExceeded(step)),
  ]),
) as Record<StepName, unknown>;
const slow = new Map<number, LoopStepFailure>();
const tooLong = (retryAfterMs: number) => {
  let failure = slow.get(retryAfterMs);
  if (!failure) {
    failure = transientFailure('503: retry much later', { effect: 'none', retryAfterMs });
    slow.set(retryAfterMs, failure);
  }
  return failure;
};

/**
 * Every kind of thrown failure for a step: the ones that would be retried only when a detour is
 * `free`, the ones that end the run only where `endings` are offered.
 */
function failures(
  step: StepName,
  view: LoopView,
  free: boolean,
  endings: boolean,
): ScriptedEvent[] {
  const { settings, transientRetried } = view;
  const idempotent = settings.idempotent[step];
  const retries = (effect: FailureEffect) =>
    !transientRetried && step !== 'fallback' && (effect === 'none' || idempotent);
  const all: Array<[unknown, string, boolean]> = [
    [cutOff[step], 'deadlineMs ran out', false],
    [thrown.policy, 'policy', false],
    [thrown.permanent, 'permanent', false],
    [thrown.uncertain, 'uncertain', retries('unknown')],
    [thrown.unknownEffect, 'transient (effect unknown)', retries('unknown')],
    [thrown.noEffect, 'transient (effect none)', retries('none')],
    [tooLong(settings.maxRetryDelayMs + 1), 'transient, retryAfterMs too long', false],
  ];
  return all
    .filter(([, , retried]) => (retried ? free : endings))
    .map(([failure, label]) => error(step, failure, label));
}
