import { createLoopMachine, type LoopOutcome } from 'loopchart';
import { assertBoundedLoops } from 'loopchart/analysis';
import { createPipelineMachine, type PipelineOutcome } from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { type ActorRefFrom, createActor, setup, toPromise, waitFor } from 'xstate';
import { deferred, valid } from './support/scriptedSteps.js';

describe('examples/app-actor', () => {
  it('cancels the other loops when one fails fundamentally, aborting their in-flight attempts', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { app, result, signals } = await import('../examples/app-actor/app-actor.js');
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      'cancelled: globex failed fundamentally (terminate_with_partial)',
      '  acme: proceed, 30 days',
      '  globex: terminate_with_partial',
      '  initech: aborted (in-flight attempt signal aborted)',
    ]);
    log.mockRestore();
    expect(result.value).toBe('cancelled');
    expect(result.context.outcomes.initech).toMatchObject({ status: 'aborted', attempts: 1 });
    expect(signals).toEqual({ initech: 'in-flight attempt signal aborted' });
    expect(() => assertBoundedLoops(app, { strict: true })).not.toThrow();
  });
});

describe('a loop spawned by an app actor', () => {
  it("loop.abort from the parent aborts the child's in-flight step signal, and the parent gets the aborted outcome", async () => {
    const started = deferred<void>();
    const abortedWith = deferred<boolean>();
    const loop = createLoopMachine({
      attempt: ({ signal }) => {
        started.resolve();
        signal.addEventListener('abort', () => abortedWith.resolve(signal.aborted));
        return new Promise<never>(() => {});
      },
      validate: () => valid,
    });
    const parent = setup({
      types: { context: {} as { outcome?: LoopOutcome } },
      actors: { loop },
    }).createMachine({
      context: {},
      invoke: {
        id: 'child',
        src: 'loop',
        input: { input: 'x' },
        onDone: {
          target: '.done',
          actions: ({ context, event }) => (context.outcome = event.output),
        },
      },
      initial: 'running',
      states: {
        running: {
          on: {
            cancel: {
              actions: ({ self }) =>
                self
                  .getSnapshot()
                  .children.child?.send({ type: 'loop.abort', reason: 'sibling failed' }),
            },
          },
        },
        done: { type: 'final' },
      },
    });
    const actor = createActor(parent).start();
    await started.promise;
    actor.send({ type: 'cancel' });
    expect(await abortedWith.promise).toBe(true);
    await toPromise(actor);
    expect(actor.getSnapshot().context.outcome).toMatchObject({
      status: 'aborted',
      error: { kind: 'aborted' },
    });
  });

  it('a pipeline runs as a child of an app actor, which answers its pause with an event', async () => {
    const loop = {
      maxRetries: 0,
      attempt: ({ input }: { input: unknown }) => input,
      validate: () => valid,
    };
    const pipeline = createPipelineMachine({
      stages: [
        { id: 'draft', loop, checkpoint: true },
        { id: 'publish', dependsOn: ['draft'], loop },
      ],
    });
    const app = setup({
      types: { context: {} as { outcome?: PipelineOutcome } },
      actors: { pipeline },
    }).createMachine({
      context: {},
      invoke: {
        id: 'pipeline',
        src: 'pipeline',
        input: { input: 'release notes' },
        onDone: {
          target: '.done',
          actions: ({ context, event }) => (context.outcome = event.output),
        },
      },
      initial: 'running',
      states: { running: {}, done: { type: 'final' } },
    });
    const actor = createActor(app).start();
    const child = actor.getSnapshot().children.pipeline as ActorRefFrom<typeof pipeline>;
    await waitFor(child, (snapshot) => snapshot.hasTag('waitsForHuman'));
    expect(child.getSnapshot().context.pause).toMatchObject({
      reason: 'checkpoint',
      stages: ['draft'],
    });
    child.send({ type: 'pipeline.continue' });
    await toPromise(actor);
    expect(actor.getSnapshot().context.outcome).toMatchObject({
      status: 'completed',
      ok: true,
      results: { draft: 'release notes', publish: { draft: 'release notes' } },
    });
  });
});
