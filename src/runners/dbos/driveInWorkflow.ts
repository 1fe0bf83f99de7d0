import { AsyncLocalStorage } from 'node:async_hooks';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { type Actor, type AnyStateMachine, createActor, type SnapshotFrom } from 'xstate';
import { monotonicClock } from '../../core/vocabulary/clock.js';

/** The workflow event that holds a paused run's question, or `null` while it is not paused. */
export const PENDING_EVENT = 'loopchart.pending';
/** The topic that answers to a pause arrive on (`DBOS.send(runId, answer, ANSWER_TOPIC)`). */
export const ANSWER_TOPIC = 'loopchart.answer';

/** A pause as the workflow publishes it: which pause of the run (1, 2, …) and what it waits for. */
export interface PublishedPause<P = unknown> {
  pause: number;
  state: string;
  pending: P;
}

/** How a workflow reads its machine's pause and checks an answer to it (untrusted input). */
export interface PauseReader {
  pendingOf(snapshot: SnapshotFrom<AnyStateMachine>): unknown;
  /**
   * The answer as the machine is to take it, checked as `answer()` checks it (the pause fit, the
   * config's answer schemas, their transforms applied), or `undefined` to refuse it. Every path
   * an answer takes into a workflow comes through here, the raw answer topic included.
   */
  check(event: unknown, snapshot: SnapshotFrom<AnyStateMachine>): Promise<unknown>;
}

/** An answer as it travels to the workflow; `pause` pins it to one pause. */
export interface AnswerMessage {
  event: { type: string };
  pause?: number;
}

const RECV_SECONDS = 3600;

/**
 * Carries a failure of DBOS itself (a lost database, a cancelled workflow) out of a step, so it
 * fails the workflow instead of becoming a loop outcome that a user step never caused.
 */
export class EngineLink {
  static readonly #current = new AsyncLocalStorage<EngineLink>();

  /** The link of the workflow execution this code runs in (steps find theirs this way). */
  static current(): EngineLink {
    return EngineLink.#current.getStore() ?? detached;
  }

  /** Runs `work` with this link as the current one, and everything it starts after it. */
  within<T>(work: () => T): T {
    return EngineLink.#current.run(this, work);
  }

  #fail: (error: unknown) => void = () => {};
  #failed: { error: unknown } | undefined;

  /** Runs a DBOS call; if DBOS throws, the run stops and the workflow rejects with that error. */
  async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.#failed ??= { error };
      this.#fail(error);
      throw error;
    }
  }

  onFail(fail: (error: unknown) => void): void {
    this.#fail = fail;
    if (this.#failed) fail(this.#failed.error);
  }

  #last: 'none' | 'wait' | 'ran' | 'replayed' = 'none';

  /**
   * How the workflow's last journalled operation went: a step whose body `ran` in this execution,
   * one DBOS `replayed` from the journal, a `wait` (a sleep or a pause), or `none` yet. Which kind
   * comes last is the same in every execution; whether it ran or was replayed is not.
   */
  get last(): 'none' | 'wait' | 'ran' | 'replayed' {
    return this.#last;
  }

  stepDone(ranNow: boolean): void {
    this.#last = ranNow ? 'ran' : 'replayed';
  }

  waited(): void {
    this.#last = 'wait';
  }

  #thawAt: number | undefined;

  /**
   * When the deadline starts counting again after the pause being answered now: when this
   * execution reached the pause plus how long the pause lasted when it happened (both journalled
   * or read in order), so a replay credits the run the time its person took. Undefined otherwise.
   */
  get thawAt(): number | undefined {
    return this.#thawAt;
  }

  /** Runs `send` (the answer) with the pause's journalled duration as `thawAt`. */
  answering(seenAt: number, pausedForMs: number, send: () => void): void {
    this.#thawAt = seenAt + Math.max(0, pausedForMs);
    try {
      send();
    } finally {
      this.#thawAt = undefined;
    }
  }
}

/**
 * Runs `work` as a DBOS step named `name` (retries off) through `engine`, and records whether its
 * body ran in this execution or DBOS replayed its output (`engine.last`).
 */
export async function journalled<T>(
  engine: EngineLink,
  name: string,
  work: () => T | Promise<T>,
): Promise<T> {
  let ranNow = false;
  const result = await engine.call(() =>
    DBOS.runStep(
      async () => {
        ranNow = true;
        return work();
      },
      { name, retriesAllowed: false },
    ),
  );
  engine.stepDone(ranNow);
  return result;
}

/**
 * The time (on the monotonic clock, as deadlines are measured) as a journalled step named
 * `name`: a replay reads the time the run first took.
 */
export const journalledNow = (engine: EngineLink, name: string) =>
  journalled(engine, name, () => monotonicClock.now());

/** The journalled times around a pause: when it began and when its answer was taken. */
export const PAUSED_AT = 'loopchart.pausedAt';
export const ANSWERED_AT = 'loopchart.answeredAt';

/**
 * Runs a machine inside the current DBOS workflow to its final state and returns its output.
 * Whenever it waits for a person (tag `waitsForHuman`) it publishes the pause as a workflow
 * event and waits for an answer on a workflow message; a message that does not fit the pause
 * (a stale pause number, a malformed answer, an event the state does not take) is dropped and
 * the run keeps waiting.
 * Every DBOS call happens in the machine's own order, so a replay makes the same calls.
 */
export function driveInWorkflow<O>(
  machine: AnyStateMachine,
  input: unknown,
  pauses: PauseReader,
  engine: EngineLink = new EngineLink(),
): Promise<O> {
  return engine.within(() => drive<O>(machine, input, pauses, engine));
}

function drive<O>(
  machine: AnyStateMachine,
  input: unknown,
  reader: PauseReader,
  engine: EngineLink,
): Promise<O> {
  const actor: Actor<AnyStateMachine> = createActor(machine, { input });
  let pauses = 0;
  let waiting = false;
  return new Promise<O>((resolve, reject) => {
    const waitForAnswer = async (snapshot: SnapshotFrom<AnyStateMachine>) => {
      const seenAt = monotonicClock.now();
      const pause = ++pauses;
      const state = stateName(snapshot.value);
      const pending = reader.pendingOf(snapshot);
      const pausedAt = await journalledNow(engine, PAUSED_AT);
      await DBOS.setEvent<PublishedPause>(PENDING_EVENT, { pause, state, pending });
      for (;;) {
        const message = await DBOS.recv<AnswerMessage>(ANSWER_TOPIC, RECV_SECONDS);
        if (!message || (message.pause !== undefined && message.pause !== pause)) continue;
        const event = await reader.check(message.event, snapshot);
        if (event === undefined || !actor.getSnapshot().can(event as never)) continue;
        const answeredAt = await journalledNow(engine, ANSWERED_AT);
        await DBOS.setEvent(PENDING_EVENT, null);
        engine.waited();
        waiting = false;
        engine.answering(seenAt, answeredAt - pausedAt, () => actor.send(event as never));
        return;
      }
    };
    engine.onFail((error) => {
      actor.stop();
      reject(error);
    });
    actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === 'done') {
          resolve(snapshot.output as O);
          return;
        }
        if (waiting || !snapshot.hasTag('waitsForHuman')) return;
        waiting = true;
        waitForAnswer(snapshot).catch((error: unknown) => {
          actor.stop();
          reject(error);
        });
      },
      error: reject,
    });
    actor.start();
  });
}

const detached = new EngineLink();

/** A state value as a dotted path: `awaitingReview`, `layer2.stageFailed`. */
function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  const [entry] = Object.entries((value ?? {}) as Record<string, unknown>);
  return entry ? `${entry[0]}.${stateName(entry[1])}` : '';
}
