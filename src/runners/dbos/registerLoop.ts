import { DBOS, type WorkflowHandle } from '@dbos-inc/dbos-sdk';
import { type AnyStateMachine, fromPromise } from 'xstate';
import { type LoopPlan, planOf } from '../../core/chart/compileLoop.js';
import { replayedPauseDeadline } from '../../core/chart/loopActions.js';
import type { LoopContext, PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { checkAnswer } from '../loop/checkAnswer.js';
import { cancelledOutcome } from './cancelledOutcome.js';
import { checkLoopAnswer } from './checkLoopAnswer.js';
import { DbosRunError, refused } from './DbosRunError.js';
import {
  ANSWER_TOPIC,
  type AnswerMessage,
  driveInWorkflow,
  EngineLink,
  journalled,
  journalledNow,
  type PauseReader,
  PENDING_EVENT,
  type PublishedPause,
} from './driveInWorkflow.js';
import { journalledStepActor, RETRY_WAIT } from './journalledStep.js';

/** Where and how to start a run: DBOS's own `workflowID` (the run id) and `queueName`. */
export interface DbosStartOptions {
  workflowID?: string;
  /** A queue registered with `DBOS.registerQueue`; its concurrency limits hold across processes. */
  queueName?: string;
}

/**
 * A paused run's question as its workflow publishes it (a review's candidate of type `C`); answer
 * it with `pause` to pin the answer.
 */
export type DbosLoopPause<C = unknown> = PublishedPause<PendingRequest<C>>;

/** An answer to a paused loop run (the loop's own `review.*` / `clarification.answer` events). */
export type DbosLoopAnswer<I = unknown, C = unknown> = Exclude<
  LoopEvent<I, C>,
  { type: 'loop.abort' }
>;

/** A loop registered as a DBOS workflow, typed with the loop's input `I` and candidate `C`. */
export interface DbosLoop<I, C> {
  readonly name: string;
  /** The registered workflow function: call it inside another workflow, or start it with DBOS. */
  readonly workflow: (input: I) => Promise<LoopOutcome<C>>;
  /** Starts a run (on `queueName` if given); the handle's result is the run's outcome. */
  start(input: I, options?: DbosStartOptions): Promise<WorkflowHandle<LoopOutcome<C>>>;
  /** Waits for the run's outcome; a run cancelled through DBOS reads as `aborted`. */
  outcome(runId: string): Promise<LoopOutcome<C>>;
  /** The question a run waits on now, or `null` while it is working or finished. */
  pending(runId: string): Promise<DbosLoopPause<C> | null>;
  /**
   * Answers the pause the run waits on, from any process; `pause` applies it only to that pause.
   * Throws `DbosRunError` (`not_found`, `not_waiting`, `refused`) and then sends nothing.
   */
  answer(
    runId: string,
    event: DbosLoopAnswer<I, C>,
    options?: { pause?: number | undefined },
  ): Promise<void>;
  /** Cancels the run through `DBOS.cancelWorkflow`; its outcome then reads as `aborted`. */
  cancel(runId: string): Promise<void>;
}

const NAME = /^[A-Za-z][\w.-]{0,99}$/;

/** A workflow name DBOS and loopchart both accept, or a `LoopConfigError` naming the field. */
export function checkName(name: unknown, what: string): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new LoopConfigError(
      `loopchart: invalid ${what} options\n  - name: must be a letter followed by up to 99 letters, digits, _, . or -`,
    );
  }
  return name;
}

/**
 * Registers a loop as a DBOS workflow (call it before `DBOS.launch()`). Each step runs as a DBOS
 * step with DBOS's retries off; a non-idempotent step in flight when its process died ends the
 * run `unknown_outcome` on recovery, an idempotent one runs again; retry waits are durable
 * sleeps; pauses wait on workflow messages and publish their question as a workflow event.
 * @example const invoices = registerLoop({ attempt, validate }, { name: 'invoices' });
 *          await DBOS.launch();
 *          const handle = await invoices.start('ACME Q3', { queueName: 'loops' });
 */
export function registerLoop<I, C>(
  loop: LoopConfig<I, C> | LoopPlan<I, C>,
  options: { name: string },
): DbosLoop<I, C> {
  const plan = planOf(loop);
  const { settings, config } = plan;
  const name = checkName(options?.name, 'DBOS loop');
  const machine = dbosLoopMachine(plan);
  const pauses = loopPauses(config.answers as LoopConfig['answers']);
  const workflow = DBOS.registerWorkflow(loopWorkflow<I, C>(machine, pauses), { name });
  return {
    name,
    workflow,
    start: (input, start = {}) => DBOS.startWorkflow(workflow, start)(input),
    outcome: (runId) =>
      outcomeOf<LoopOutcome<C>>(runId, (id) =>
        cancelledOutcome<C>(id, { machine, settings, pauses }),
      ),
    pending: (runId) => pendingOf<PendingRequest<C>>(runId),
    answer: async (runId, event, { pause } = {}) => {
      const current = await waitingPause<PendingRequest>(runId, pause);
      // the event must fit the pause, then pass resumeLoop's own check (the answer schemas too);
      // it is sent as given: the workflow checks it again and applies the schemas' transforms once
      const fits = checkLoopAnswer(runId, event, current.pending);
      await checkAnswer(runId, fits, current.pending, config.answers).catch(refused(runId));
      await DBOS.send<AnswerMessage>(runId, { event: fits, pause: current.pause }, ANSWER_TOPIC);
    },
    cancel: (runId) => DBOS.cancelWorkflow(runId),
  };
}

/**
 * How a loop workflow reads its pause and checks an answer: the pause fit, then the config's
 * answer schemas within the run's time left, as `answer()` and `resumeLoop` do. The schemas run
 * again when DBOS replays the workflow, so they must be deterministic (a pure transform).
 */
function loopPauses(answers: LoopConfig['answers']): PauseReader {
  const pendingOf = (snapshot: { context: unknown }) =>
    (snapshot.context as { pending: PendingRequest }).pending;
  return {
    pendingOf,
    check: async (event, snapshot) => {
      const pending = pendingOf(snapshot);
      const { deadlineLeftMs } = (snapshot.context as LoopContext).ledger;
      try {
        return await checkAnswer(
          '',
          checkLoopAnswer('', event, pending),
          pending,
          answers,
          deadlineLeftMs,
        );
      } catch {
        return undefined;
      }
    },
  };
}

/** The loop machine of a workflow: user steps journalled, retry waits durable. */
function dbosLoopMachine<I, C>(plan: LoopPlan<I, C>) {
  const { steps, settings } = plan;
  const journalled = (step: StepName) => journalledStepActor(step, steps, settings);
  return plan.sharedChart.provide({
    actors: {
      attempt: journalled('attempt'),
      validate: journalled('validate'),
      refine: journalled('refine'),
      fallback: journalled('fallback'),
      retryDelay: durableRetryWait,
    },
    actions: replayedPauseDeadline(() => EngineLink.current().thawAt ?? monotonicClock.now()),
  });
}

/** A loop workflow: its start time journalled first (its deadline counts from it), then the loop. */
function loopWorkflow<I, C>(machine: AnyStateMachine, pauses: PauseReader) {
  return (input: I) => {
    const engine = new EngineLink();
    return engine.within(async () => {
      const startedAt = await journalledNow(engine, 'loopchart.start');
      return driveInWorkflow<LoopOutcome<C>>(machine, { input, startedAt }, pauses, engine);
    });
  };
}

/**
 * The retry wait as `DBOS.sleep`: when it ends and whether the run's deadline cuts it short are
 * journalled first, so a replay (after a recovery, however late) takes the decision the run took;
 * a recovered run sleeps only until the recorded wake-up, and a wait the deadline cuts short ends
 * the loop `ceiling_stop`, as in `runLoop`.
 */
const durableRetryWait = fromPromise<
  { deadline: boolean },
  { until: number; deadlineAt?: number | null }
>(async ({ input }) => {
  const engine = EngineLink.current();
  const plan = await journalled(engine, RETRY_WAIT, () => {
    const deadline = input.deadlineAt != null && input.deadlineAt < input.until;
    return { deadline, wakeAt: deadline ? (input.deadlineAt as number) : input.until };
  });
  await engine.call(() => DBOS.sleep(Math.max(0, plan.wakeAt - monotonicClock.now())));
  engine.waited();
  return { deadline: plan.deadline };
});

/** Waits for a loop or pipeline workflow's outcome; `cancelled` reads a cancelled one. */
export async function outcomeOf<O>(
  runId: string,
  cancelled: (runId: string) => Promise<O>,
): Promise<O> {
  const status = await DBOS.getWorkflowStatus(runId);
  if (!status) throw new DbosRunError('not_found', runId, `loopchart: no workflow '${runId}'`);
  if (status.status === 'CANCELLED') return cancelled(runId);
  try {
    return (await DBOS.retrieveWorkflow<O>(runId).getResult()) as O;
  } catch (error) {
    const now = await DBOS.getWorkflowStatus(runId);
    if (now?.status === 'CANCELLED') return cancelled(runId);
    throw error;
  }
}

/** The pause a workflow publishes now, or `null`. */
export async function pendingOf<P>(runId: string): Promise<PublishedPause<P> | null> {
  return DBOS.getEvent<PublishedPause<P>>(runId, PENDING_EVENT, 0);
}

/** The pause a run waits on (the one numbered `pause`, if given), or a `DbosRunError`. */
export async function waitingPause<P>(runId: string, pause?: number): Promise<PublishedPause<P>> {
  const status = await DBOS.getWorkflowStatus(runId);
  if (!status) throw new DbosRunError('not_found', runId, `loopchart: no workflow '${runId}'`);
  const current = status.status === 'PENDING' ? await pendingOf<P>(runId) : null;
  if (!current) {
    throw new DbosRunError(
      'not_waiting',
      runId,
      `loopchart: run '${runId}' is ${status.status.toLowerCase()} and waits for no answer`,
    );
  }
  if (pause !== undefined && pause !== current.pause) {
    throw new DbosRunError(
      'not_waiting',
      runId,
      `loopchart: run '${runId}' is at pause #${current.pause}, not #${pause}: the answer was not sent`,
    );
  }
  return current;
}
