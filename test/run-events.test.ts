import {
  createLoopMachine,
  isLoopConfigError,
  type LoopOutcome,
  MemoryCheckpointStore,
  observeLoop,
  type RunEvent,
  resumeLoop,
  runLoop,
  type StepEntry,
  type TraceEntry,
} from 'loopchart';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createActor, setup, toPromise } from 'xstate';
import { correctable, valid } from './support/scriptedSteps.js';

/** A loop that refines twice and proceeds on its third attempt. */
const threeIterations = {
  id: 'drafts',
  maxRetries: 3,
  attempt: ({ attempt }: { attempt: number }) => ({ draft: attempt }),
  validate: (c: { draft: number }) => (c.draft >= 3 ? valid : correctable(`draft ${c.draft}`)),
};

const entriesOf = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'step.finished' || e.type === 'decision' ? [e.entry] : []));

describe('run events', () => {
  it('onEvent delivers exactly the trace entries, in order, for a 3-iteration loop', async () => {
    const events: RunEvent<{ draft: number }>[] = [];
    const outcome = await runLoop(threeIterations, 'x', { onEvent: (e) => events.push(e) });
    expect(outcome.status).toBe('proceed');
    expect(outcome.attempts).toBe(3);
    expect(entriesOf(events)).toEqual(outcome.trace);
    expect(outcome.trace.length).toBeGreaterThanOrEqual(8);
    expect(events.at(-1)).toEqual({ type: 'outcome', outcome });
  });

  it('reports each step as started before its entry, with the attempt and the key', async () => {
    const events: RunEvent[] = [];
    const outcome = await runLoop(threeIterations, 'x', { onEvent: (e) => events.push(e) });
    const shape = events.map((e) =>
      e.type === 'step.started'
        ? `start ${e.step}#${e.attempt}`
        : e.type === 'step.finished'
          ? `done ${e.entry.state}`
          : e.type === 'decision'
            ? `decide ${e.entry.decision}`
            : e.type,
    );
    expect(shape).toEqual([
      'start attempt#1',
      'done attempting',
      'start validate#1',
      'done validating',
      'decide refine',
      'start refine#1',
      'done refining',
      'start attempt#2',
      'done attempting',
      'start validate#2',
      'done validating',
      'decide refine',
      'start refine#2',
      'done refining',
      'start attempt#3',
      'done attempting',
      'start validate#3',
      'done validating',
      'decide proceed',
      'outcome',
    ]);
    const firstStart = events[0];
    if (firstStart?.type !== 'step.started') throw new Error('expected step.started first');
    expect(firstStart.key).toBe(outcome.trace[0]?.key);
  });

  it('is typed: events narrow by type, entries are trace entries, the outcome carries the candidate', async () => {
    await runLoop(threeIterations, 'x', {
      onEvent(event) {
        expectTypeOf(event).toEqualTypeOf<RunEvent<{ draft: number }>>();
        if (event.type === 'step.finished') {
          expectTypeOf(event.entry).toEqualTypeOf<StepEntry>();
          expectTypeOf(event.entry).toMatchTypeOf<TraceEntry>();
        }
        if (event.type === 'decision') expectTypeOf(event.entry.decision).toBeString();
        if (event.type === 'outcome') {
          expectTypeOf(event.outcome).toEqualTypeOf<LoopOutcome<{ draft: number }>>();
          if (event.outcome.status === 'proceed')
            expectTypeOf(event.outcome.candidate).toEqualTypeOf<{ draft: number }>();
        }
        // @ts-expect-error there is no such event
        if (event.type === 'step.retried') return;
      },
    });
  });

  it('a failed step is a step.finished with its failure kind, then the stop decision', async () => {
    const events: RunEvent[] = [];
    const outcome = await runLoop(
      {
        attempt: () => {
          throw new Error('boom');
        },
        validate: () => valid,
      },
      'x',
      { onEvent: (e) => events.push(e) },
    );
    expect(outcome.status).toBe('permanent_failure');
    expect(entriesOf(events)).toEqual(outcome.trace);
    const failed = events.find((e) => e.type === 'step.finished');
    expect(failed?.type === 'step.finished' && failed.entry.failureKind).toBe('permanent');
  });

  it('a throwing onEvent does not change the run', async () => {
    const outcome = await runLoop(threeIterations, 'x', {
      onEvent: () => {
        throw new Error('observer bug');
      },
    });
    expect(outcome).toMatchObject({ status: 'proceed', attempts: 3 });
  });

  it('a bad onEvent is a config error naming the field', async () => {
    const error = await runLoop(threeIterations, 'x', { onEvent: 42 as never }).catch((e) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect(error.message).toMatchInlineSnapshot(`
      "loopchart: invalid run options
        - onEvent: must be a function (event) => void"
    `);
  });

  it('an aborted-before-start run still reports its outcome', async () => {
    const events: RunEvent[] = [];
    const outcome = await runLoop(threeIterations, 'x', {
      signal: AbortSignal.abort('no'),
      onEvent: (e) => events.push(e),
    });
    expect(outcome.status).toBe('aborted');
    expect(events).toEqual([{ type: 'outcome', outcome }]);
  });

  it('a checkpointed run reports its pause; the resumed run continues the same trace', async () => {
    const store = new MemoryCheckpointStore();
    const config = { ...threeIterations, review: { beforeProceed: true } };
    const first: RunEvent[] = [];
    const paused = await runLoop(config, 'x', {
      store,
      runId: 'r1',
      onEvent: (e) => first.push(e),
    });
    expect(paused.status).toBe('paused');
    expect(first.at(-1)).toMatchObject({ type: 'pause', state: 'awaitingReview' });
    const second: RunEvent[] = [];
    const outcome = await resumeLoop(config, {
      store,
      runId: 'r1',
      event: { type: 'review.continue' },
      onEvent: (e) => second.push(e),
    });
    expect(outcome.status).toBe('proceed');
    expect([...entriesOf(first), ...entriesOf(second)]).toEqual(outcome.trace);
  });

  it('observeLoop gives the same events for an actor you create', async () => {
    const viaRun: RunEvent[] = [];
    await runLoop(threeIterations, 'x', { onEvent: (e) => viaRun.push(e) });
    const actor = createActor(createLoopMachine(threeIterations), { input: { input: 'x' } });
    const viaActor: RunEvent[] = [];
    observeLoop(actor, (e) => viaActor.push(e));
    actor.start();
    const outcome = await toPromise(actor);
    expect(entriesOf(viaActor)).toEqual(outcome.trace);
    expect(viaActor.map((e) => e.type)).toEqual(viaRun.map((e) => e.type));
  });

  it('observeLoop ignores an actor that is not a loop', async () => {
    const other = createActor(
      setup({}).createMachine({
        initial: 'a',
        states: { a: { on: { go: 'b' } }, b: { type: 'final' } },
      }),
    );
    const events: RunEvent[] = [];
    observeLoop(other, (e) => events.push(e));
    other.start();
    other.send({ type: 'go' });
    expect(other.getSnapshot().status).toBe('done');
    expect(events).toEqual([]);
  });
});
