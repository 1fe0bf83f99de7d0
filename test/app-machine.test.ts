import { createLoopMachine, type LoopOutcome } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, toPromise } from 'xstate';
import { correctable, counted, deferred, valid } from './support/scriptedSteps.js';

describe('a loop invoked as a child of an app machine', () => {
  it("delivers its LoopOutcome to the parent's onDone", async () => {
    const loop = createLoopMachine<string, string>({
      maxRetries: 3,
      attempt: ({ input, iteration }) => `${input} v${iteration + 1}`,
      validate: counted((n) => (n < 3 ? correctable('needs a citation') : valid)),
    });
    const app = setup({
      types: { context: {} as { outcome?: LoopOutcome<string> } },
      actors: { loop },
    }).createMachine({
      context: {},
      initial: 'working',
      states: {
        working: {
          invoke: {
            src: 'loop',
            input: { input: 'report' },
            onDone: { target: 'done', actions: assign({ outcome: ({ event }) => event.output }) },
          },
        },
        done: { type: 'final' },
      },
    });
    const actor = createActor(app).start();
    await toPromise(actor);
    expect(actor.getSnapshot().context.outcome).toMatchObject({
      status: 'proceed',
      candidate: 'report v3',
      iterations: 2,
      attempts: 3,
    });
  });

  it("stopping the parent aborts the in-flight step's signal", async () => {
    const started = deferred<AbortSignal>();
    const loop = createLoopMachine({
      attempt: ({ signal }) => {
        started.resolve(signal);
        return new Promise<string>(() => {});
      },
      validate: () => valid,
    });
    const app = setup({ actors: { loop } }).createMachine({
      initial: 'working',
      states: { working: { invoke: { id: 'child', src: 'loop', input: { input: 'x' } } } },
    });
    const actor = createActor(app).start();
    const stepSignal = await started.promise;
    expect(stepSignal.aborted).toBe(false);
    actor.stop();
    expect(stepSignal.aborted).toBe(true);
  });

  it('leaving the invoking state also aborts the step, and the parent can still act on its own', async () => {
    const started = deferred<AbortSignal>();
    const loop = createLoopMachine({
      attempt: ({ signal }) => {
        started.resolve(signal);
        return new Promise<string>(() => {});
      },
      validate: () => valid,
    });
    const app = setup({
      actors: { loop },
      types: { events: {} as { type: 'cancel' } },
    }).createMachine({
      initial: 'working',
      states: {
        working: { invoke: { src: 'loop', input: { input: 'x' } }, on: { cancel: 'cancelled' } },
        cancelled: { type: 'final' },
      },
    });
    const actor = createActor(app).start();
    const stepSignal = await started.promise;
    actor.send({ type: 'cancel' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(stepSignal.aborted).toBe(true);
  });
});
