import { reservationRefusal } from '../../core/chart/costReservation.js';
import { DeadlineExceeded, deadlineRecord } from '../../core/chart/deadline.js';
import type { LoopView } from '../../core/chart/loopView.js';
import {
  type FailureEffect,
  type LoopStepFailure,
  permanentFailure,
  policyRejection,
  type StepName,
  transientFailure,
  uncertainSideEffect,
} from '../../core/vocabulary/failures.js';
import { clarificationRequest, emptyResult, withCost } from '../../core/vocabulary/stepResults.js';
import {
  done,
  type EventPolicy,
  error,
  labelled,
  SAME_DRAFT,
  type ScriptedEvent,
  sameError,
} from './scriptedEvents.js';

/** Where a path stands when the chart asks for the events a state accepts. */
export interface Standing {
  view: LoopView;
  policy: EventPolicy;
  /** At the attempt ceiling, or the cost budget is spent: only endings are left. */
  atCeiling: boolean;
  costSpent: boolean;
  /** What is left of `maxCost`, or null when there is none (or it is spent). */
  rest: number | null;
  /** The last validation saw the same draft with the same error: a stall can follow. */
  lane: boolean;
  /** This refine cycle offers every way of ending. */
  endings: boolean;
  /** A detour (a transient retry, a question, a review retry or edit) is still allowed. */
  free: boolean;
  /** Past the detours, the first cycle may only ask more questions. */
  onlyQuestions: boolean;
  mayRefine: boolean;
  /** Early in the run, or paused: an abort is worth a path. */
  mayAbort: boolean;
}

type Offer = (at: Standing) => ScriptedEvent[];

/**
 * What to feed for each event a loop state can accept, in the order paths should try them. Which
 * events a state accepts is the chart's to say (`stepEvents` asks it); this table only says what
 * each event carries: realistic step outputs and failures, and the people's answers.
 */
export const EVENT_OFFERS: Record<string, Offer> = {
  'xstate.done.actor.attempt': (at) => {
    const { view, policy, rest, onlyQuestions } = at;
    const draft = policy.candidate(view.attempts);
    const events: ScriptedEvent[] = [];
    if (!onlyQuestions) events.push(done('attempt', draft, 'attempt'));
    if (at.lane && !onlyQuestions) events.push(done('attempt', SAME_DRAFT, 'attempt (same draft)'));
    if (at.free || view.iterations === 0) events.push(...questions(rest));
    if (at.endings && !onlyQuestions) {
      if (rest !== null)
        events.push(done('attempt', withCost(draft, rest), `attempt (spends the budget: ${rest})`));
      events.push(
        done('attempt', emptyResult('no record matches the request'), 'attempt: nothing found'),
      );
    }
    return events;
  },
  'xstate.error.actor.attempt': (at) =>
    at.onlyQuestions
      ? []
      : failures('attempt', at.view, at.free || at.atCeiling || at.costSpent, at.endings),
  'xstate.done.actor.validate': (at) => {
    const check = `${at.view.attempts}.${at.view.trace.length}`;
    const events = [done('validate', { valid: true }, 'valid')];
    if (at.mayRefine) {
      const message = `add the missing total (check ${check})`;
      events.push(
        done(
          'validate',
          { valid: false, error: { severity: 'correctable', message } },
          'correctable',
        ),
      );
    }
    if (at.lane) events.push(done('validate', sameError, 'correctable (same error)'));
    if (at.endings) {
      const message = 'the request asks for a different report';
      events.push(
        done(
          'validate',
          { valid: false, error: { severity: 'fundamental', message } },
          'fundamental',
        ),
        done('validate', { valid: false }, 'no diagnostic'),
        done('validate', { verdict: 'looks fine to me', confidence: 0.9 }, 'malformed verdict'),
      );
    }
    return events;
  },
  'xstate.error.actor.validate': (at) =>
    failures('validate', at.view, at.free || at.costSpent, at.endings),
  'xstate.done.actor.refine': (at) => [
    done(
      'refine',
      { task: 'summarise the memo', hint: `revision ${at.view.iterations}` },
      'refine',
    ),
  ],
  'xstate.error.actor.refine': (at) =>
    failures('refine', at.view, at.free || at.costSpent, at.endings),
  'xstate.done.actor.fallback': () => [done('fallback', 'a template answer', 'fallback')],
  'xstate.error.actor.fallback': (at) => failures('fallback', at.view, true, true),
  'xstate.done.actor.retryDelay': (at) => [
    done('retryDelay', { deadline: false }, 'retry wait'),
    ...(at.endings
      ? [done('retryDelay', { deadline: true }, 'retry wait: deadlineMs ran out')]
      : []),
  ],
  'clarification.answer': () => [
    labelled('answer', { type: 'clarification.answer', answer: '2025' }),
  ],
  'review.continue': () => [labelled('review: continue', { type: 'review.continue' })],
  'review.abort': () => [
    labelled('review: abort', { type: 'review.abort', reason: 'the reviewer stopped it' }),
  ],
  'review.retry': (at) =>
    at.free || at.lane
      ? [labelled('review: retry', { type: 'review.retry', feedback: 'shorter, please' })]
      : [],
  'review.modify': (at) => {
    const { view } = at;
    const events: ScriptedEvent[] = [];
    if (at.lane && view.stall.repeats < (view.settings.stall?.after ?? 0)) {
      events.push(
        labelled('review: resubmit the same draft', {
          type: 'review.modify',
          candidate: SAME_DRAFT,
        }),
      );
    }
    if (at.free) {
      events.push(
        labelled('review: modify input', {
          type: 'review.modify',
          input: { task: 'summarise the memo in 3 lines' },
        }),
        labelled('review: modify candidate', {
          type: 'review.modify',
          candidate: 'an edited draft',
        }),
      );
    }
    return events;
  },
  'loop.abort': (at) =>
    at.mayAbort ? [labelled('abort', { type: 'loop.abort', reason: 'the user cancelled' })] : [],
};

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
const refused = Object.fromEntries(
  (['attempt', 'validate', 'refine', 'fallback'] as const).map((step) => [
    step,
    reservationRefusal(step, 1, 1, 1),
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
  if (settings.maxCost !== null)
    all.push([refused[step], 'refused: its cost would pass maxCost', false]);
  return all
    .filter(([, , retried]) => (retried ? free : endings))
    .map(([failure, label]) => error(step, failure, label));
}
