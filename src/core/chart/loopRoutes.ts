import { decide, type Row } from '../decisions/decisionTable.js';

const pause = (reason: 'beforeProceed' | 'afterFailedValidation') =>
  ['acceptVerdict', { type: 'pauseForReview', params: { reason } }] as const;
const enter = <P extends string>(phase: P) => ({ type: 'enterPhase', params: { phase } }) as const;

/** `validating`'s done branches: a review pause where the config asks for one, else routing. */
export const VERDICT_ARRIVAL_ROWS = [
  {
    guard: 'reviewBeforeProceed',
    target: 'awaitingReview',
    actions: pause('beforeProceed'),
    when: { reviewsBeforeProceed: true },
  },
  {
    guard: 'reviewAfterFailedValidation',
    target: 'awaitingReview',
    actions: pause('afterFailedValidation'),
    when: { reviewsAfterFailedValidation: true },
  },
  { target: 'routing', actions: 'acceptVerdict' },
] as const satisfies readonly Row[];

/** After a retry wait, the step that failed runs again. */
export const RETRY_ROWS = [
  {
    guard: 'retryWaitHitDeadline',
    target: 'ceiling_stop',
    actions: 'recordDeadline',
    when: { hasDeadline: true },
  },
  { guard: 'failedInAttempt', target: 'attempting', when: { canReattempt: true } },
  {
    guard: 'failedInRefine',
    target: 'refining',
    actions: enter('refining'),
    when: { canRefine: true },
  },
  { target: 'validating', actions: enter('validating') },
] as const satisfies readonly Row[];

/** Before an attempt that a person asked for (an answer, a review): the ceilings first. */
export const ATTEMPT_GATE_ROWS = [
  { guard: 'ceilingReached', target: 'ceiling_stop', when: { canReattempt: true } },
  {
    guard: 'costBudgetSpent',
    target: 'budget_stop',
    when: { canReattempt: true, hasBudget: true },
  },
  { target: 'attempting', when: { canReattempt: true } },
  { target: 'ceiling_stop', when: { canReattempt: false } },
] as const satisfies readonly Row[];

export { decide };
