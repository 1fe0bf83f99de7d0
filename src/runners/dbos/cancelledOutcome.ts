import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  type AnyStateMachine,
  createActor,
  fromPromise,
  type SnapshotFrom,
  toPromise,
} from 'xstate';
import { abortedBeforeStart } from '../../core/chart/abortedBeforeStart.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { ANSWERED_AT, type AnswerMessage, PAUSED_AT, type PauseReader } from './driveInWorkflow.js';
import { decode, RETRY_WAIT, type RecordedStep, startedMarker } from './journalledStep.js';

/** How close to a retry wait's end a cancel no longer proves the next step had not begun. */
const WAKE_UP_SLACK_MS = 15;

/**
 * The `aborted` outcome of a loop workflow that DBOS cancelled. A cancelled workflow records no
 * return value, so the loop is replayed from what DBOS journalled: each step returns its recorded
 * output, each wait and pause its recorded end, and where the journal stops (the step, wait or
 * pause the cancel caught) the replay aborts the run, so the outcome is the machine's own.
 */
export async function cancelledOutcome<C>(
  runId: string,
  {
    machine,
    settings,
    pauses,
  }: { machine: AnyStateMachine; settings: LoopSettings; pauses: PauseReader },
): Promise<LoopOutcome<C>> {
  const [status, journal] = await Promise.all([
    DBOS.getWorkflowStatus(runId),
    DBOS.listWorkflowSteps(runId).then((steps) => steps ?? []),
  ]);
  const replay = new JournalReplay(journal);
  const startedAt = replay.take('loopchart.start')?.output as number | undefined;
  const input = status?.input?.[0];
  if (startedAt === undefined) {
    // cancelled while it waited on its queue: no step ran, none counted
    const reason = 'The run was cancelled through DBOS before it started.';
    return abortedBeforeStart(settings, input, reason) as LoopOutcome<C>;
  }
  const stepActor = (step: StepName) =>
    fromPromise<unknown>(async () => {
      const recorded = replay.takeStep(step);
      if (!recorded) return replay.stop(`while ${step} was in flight`);
      return decode(recorded.output as RecordedStep);
    });
  const replayed = machine.provide({
    actors: {
      attempt: stepActor('attempt'),
      validate: stepActor('validate'),
      refine: stepActor('refine'),
      fallback: stepActor('fallback'),
      retryDelay: fromPromise(async () => {
        const plan = replay.take(RETRY_WAIT)?.output as
          | { deadline: boolean; wakeAt: number }
          | undefined;
        replay.take('DBOS.sleep'); // journalled as it begins, and only when there was time left to wait
        // where the journal ends here, the wait was over if the cancel came after its wake-up time;
        // a cancel just before it may have come after the next step began (a timer may fire a
        // millisecond early, Postgres stamps the cancel at its transaction's start), so that one
        // reads as the step in flight, which may have acted, never as a step that was not called
        const cancelledAt = status?.updatedAt ?? 0;
        const waiting = replay.done && cancelledAt < (plan?.wakeAt ?? 0) - WAKE_UP_SLACK_MS;
        if (!plan || waiting) return replay.stop('while it waited to retry');
        return { deadline: plan.deadline };
      }),
    },
  });
  const actor = createActor(replayed, { input: { input, startedAt } });
  replay.onStop((reason) =>
    actor.send({ type: 'loop.abort', reason: `The run was cancelled through DBOS ${reason}.` }),
  );
  let paused = false;
  actor.subscribe((snapshot) => {
    if (snapshot.status !== 'active' || !snapshot.hasTag('waitsForHuman')) {
      paused = false;
      return;
    }
    if (paused) return;
    paused = true;
    const can = (event: unknown) => snapshot.can(event as never);
    void replay.answer(pauses, snapshot, can).then((answer) => {
      if (answer) actor.send(answer as never);
      else replay.stop('while it waited for an answer');
    });
  });
  return (await toPromise(actor.start())) as LoopOutcome<C>;
}

type StepInfo = NonNullable<Awaited<ReturnType<typeof DBOS.listWorkflowSteps>>>[number];

/** What DBOS journalled for a workflow, taken in the order the workflow made its calls. */
class JournalReplay {
  #next = 0;
  #pause = 0;
  #stop: (reason: string) => void = () => {};

  constructor(private readonly journal: readonly StepInfo[]) {}

  get done(): boolean {
    return this.#next >= this.journal.length;
  }

  take(name: string): StepInfo | undefined {
    const entry = this.journal[this.#next];
    if (entry?.name !== name) return undefined;
    this.#next++;
    return entry;
  }

  /** A step's recorded output, past the marker journalled before it, if any. */
  takeStep(step: StepName): StepInfo | undefined {
    this.take(startedMarker(step));
    return this.take(step);
  }

  /** The answer the workflow took at its next pause (dropped messages skipped), if it took one. */
  async answer(
    reader: PauseReader,
    snapshot: SnapshotFrom<AnyStateMachine>,
    can: (event: unknown) => boolean,
  ): Promise<{ type: string } | undefined> {
    const pause = ++this.#pause;
    if (!this.take(PAUSED_AT) || !this.take('DBOS.setEvent')) return undefined;
    for (let recv = this.takeRecv(); recv; recv = this.takeRecv()) {
      const message = recv.output as AnswerMessage | null;
      if (!message || (message.pause !== undefined && message.pause !== pause)) continue;
      const event = (await reader.check(message.event, snapshot)) as { type: string } | undefined;
      if (event === undefined || !can(event)) continue;
      return this.take(ANSWERED_AT) && this.take('DBOS.setEvent') ? event : undefined;
    }
    return undefined;
  }

  /** A message the workflow received, past the durable timeout DBOS journals with each `recv`. */
  private takeRecv(): StepInfo | undefined {
    const recv = this.take('DBOS.recv');
    if (recv) this.take('DBOS.sleep');
    return recv;
  }

  /** Ends the replay where the journal stops; the pending step never settles. */
  stop(reason: string): Promise<never> {
    this.#stop(reason);
    return new Promise<never>(() => {});
  }

  onStop(stop: (reason: string) => void): void {
    this.#stop = stop;
  }
}
