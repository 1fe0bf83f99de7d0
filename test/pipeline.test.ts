import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import type { LoopConfig } from 'loopchart';
import {
  type CrossCheckContext,
  createPipelineMachine,
  type PipelineEmitted,
  type PipelinePaused,
  type PipelinePlan,
  type PipelineRunResult,
  type PipelineStage,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, toPromise } from 'xstate';
import { inspectorFlushed } from './support/inspectorFlushed.js';
import { correctable, counted, deferred, fundamental, valid } from './support/scriptedSteps.js';

/** A loop whose attempt returns `{ stage, input }` (or `produce(input, call)`) and is accepted. */
function stageLoop(stage: string, produce?: (input: unknown, call: number) => unknown) {
  const attempt = counted((call, { input }: { input: unknown }) =>
    produce ? produce(input, call) : { stage, input },
  );
  return { maxRetries: 0, attempt, validate: () => valid } satisfies LoopConfig;
}

/** The stage-level events, as `started:a` / `finished:a:succeeded`. */
function recorder() {
  const log: string[] = [];
  const onEvent = (event: PipelineEmitted) => {
    if (event.type === 'pipeline.stage.started') log.push(`started:${event.stage}`);
    if (event.type === 'pipeline.stage.finished')
      log.push(`finished:${event.stage}:${event.status}`);
  };
  return { log, onEvent };
}

function paused(run: PipelineRunResult): PipelinePaused {
  if (run.status !== 'paused')
    throw new Error(`expected a pause, got ${run.status}: ${run.message}`);
  return run;
}

/** The diamond a → (b, c) → d, declared in scrambled order; `loops` are the default stage loops. */
function diamond(overrides: Partial<Record<'a' | 'b' | 'c' | 'd', LoopConfig>> = {}) {
  const loops = { a: stageLoop('a'), b: stageLoop('b'), c: stageLoop('c'), d: stageLoop('d') };
  const loop = { ...loops, ...overrides };
  const stage = {
    a: { id: 'a', loop: loop.a },
    b: { id: 'b', dependsOn: ['a'], loop: loop.b },
    c: { id: 'c', dependsOn: ['a'], loop: loop.c },
    d: { id: 'd', dependsOn: ['c', 'b'], loop: loop.d },
  } satisfies Record<string, PipelineStage>;
  const plan: PipelinePlan = { stages: [stage.d, stage.b, stage.c, stage.a] };
  return { plan, loops, stage };
}

describe('a diamond plan a → (b, c) → d', () => {
  it('runs a, then b and c together, then d with both results', async () => {
    const bothStarted = deferred<void>();
    let started = 0;
    // b and c each wait until the other has started: run one after the other, they would time out.
    const together = (stage: string) =>
      stageLoop(stage, async (input) => {
        if (++started === 2) bothStarted.resolve();
        await Promise.race([bothStarted.promise, rejectAfter(2000, `${stage} ran alone`)]);
        return { stage, input };
      });
    const { plan, loops } = diamond({ b: together('b'), c: together('c') });
    const { log, onEvent } = recorder();

    const run = await runPipeline(plan, 'question', { onEvent });

    expect(run.status).toBe('completed');
    expect(log.slice(0, 4)).toEqual([
      'started:a',
      'finished:a:succeeded',
      'started:b',
      'started:c',
    ]);
    expect(log.slice(4, 6).sort()).toEqual(['finished:b:succeeded', 'finished:c:succeeded']);
    expect(log.slice(6)).toEqual(['started:d', 'finished:d:succeeded']);
    const a = { stage: 'a', input: 'question' };
    expect(loops.d.attempt.args[0]?.[0].input).toEqual({
      b: { stage: 'b', input: { a } },
      c: { stage: 'c', input: { a } },
    });
    expect(run.status === 'completed' && run.ok).toBe(true);
    expect(run.results).toEqual({
      a,
      b: { stage: 'b', input: { a } },
      c: { stage: 'c', input: { a } },
      d: {
        stage: 'd',
        input: { b: { stage: 'b', input: { a } }, c: { stage: 'c', input: { a } } },
      },
    });
    expect(run.stages.b).toMatchObject({
      status: 'succeeded',
      layer: 2,
      runs: 1,
      iterations: 0,
      attempts: 1,
      loopStatus: 'proceed',
    });
  });

  it('shows each running stage as a child actor stage:<id> with a stable system id', async () => {
    const seen: Array<{ id: string; parent: string | undefined }> = [];
    const bRunning = deferred<void>();
    const release = deferred<void>();
    const { plan } = diamond({
      b: stageLoop('b', async () => {
        bRunning.resolve();
        await release.promise;
        return 'b';
      }),
    });
    const machine = createPipelineMachine(plan);
    const actor = createActor(machine, {
      input: { input: 'q' },
      inspect: (event) => {
        if (event.type === '@xstate.actor') {
          const ref = event.actorRef as AnyActorRef;
          seen.push({ id: ref.id, parent: ref._parent?.id });
        }
      },
    }).start();
    await bRunning.promise;
    expect(actor.getSnapshot().value).toEqual({ layer2: 'running' });
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual([
      'stage:a',
      'stage:b',
      'stage:c',
    ]);
    expect(actor.system.get('pipeline/stage:b')).toBe(actor.getSnapshot().children['stage:b']);
    release.resolve();
    await toPromise(actor);
    const stages = seen.filter(({ id }) => id.startsWith('stage:'));
    expect(stages).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => ({ id: `stage:${id}`, parent: actor.id })),
    );
  });

  it('the Stately inspector receives each stage as a child actor of the pipeline', async () => {
    const received: StatelyInspectionEvent[] = [];
    const inspector = createInspector({ send: (event) => received.push(event) });
    const run = await runPipeline(diamond().plan, 'q', { inspect: inspector.inspect });
    expect(run.status).toBe('completed');
    await inspectorFlushed();
    inspector.stop();
    const actors = received.filter((event) => event.type === '@xstate.actor');
    const root = actors.find((event) => event.parentId === undefined);
    const children = actors.filter((event) => event.parentId === root?.sessionId);
    expect(children.map((event) => event.name).sort()).toEqual([
      'stage:a',
      'stage:b',
      'stage:c',
      'stage:d',
    ]);
  });

  it('the layering ignores list order: every declaration order gives the same machine', () => {
    const { plan, stage } = diamond();
    const definition = JSON.stringify(createPipelineMachine(plan).toJSON());
    for (const order of ['abcd', 'dcba', 'bdac'] as const) {
      const stages = [...order].map((id) => stage[id as keyof typeof stage]);
      expect(JSON.stringify(createPipelineMachine({ stages }).toJSON())).toBe(definition);
    }
    expect(Object.keys(createPipelineMachine(plan).states)).toEqual([
      'layer1',
      'layer2',
      'layer3',
      'completed',
      'aborted',
    ]);
  });
});

describe('the cross-stage check', () => {
  const rejectsJoin = () =>
    counted((_, _results: Record<string, unknown>, _ctx: CrossCheckContext) =>
      fundamental('b and c disagree on the customer count'),
    );

  it('a failing check stops d from starting and pauses with the verdict', async () => {
    const crossCheck = rejectsJoin();
    const { plan, loops } = diamond();
    const { log, onEvent } = recorder();

    const run = paused(await runPipeline({ ...plan, crossCheck }, 'q', { onEvent }));

    expect(run.pause).toMatchObject({
      reason: 'cross_check_failed',
      layer: 2,
      stages: ['b', 'c'],
      verdict: {
        valid: false,
        error: { severity: 'fundamental', message: 'b and c disagree on the customer count' },
      },
    });
    expect(run.pause.message).toMatchInlineSnapshot(
      `"the cross-check of layer 2 (b, c) failed: fundamental: b and c disagree on the customer count"`,
    );
    expect(loops.d.attempt.calls).toBe(0);
    expect(log).not.toContain('started:d');
    expect(run.stages.d?.status).toBe('not_started');
    expect(crossCheck.args[0]?.[0]).toEqual({ b: run.results.b, c: run.results.c });
    expect(crossCheck.args[0]?.[1]).toMatchObject({ layer: 2, stages: ['b', 'c'], input: 'q' });
  });

  it('a single-stage layer is not cross-checked', async () => {
    const crossCheck = rejectsJoin();
    const run = await runPipeline(
      {
        stages: [
          { id: 'a', loop: stageLoop('a') },
          { id: 'b', dependsOn: ['a'], loop: stageLoop('b') },
        ],
        crossCheck,
      },
      'q',
    );
    expect(run.status).toBe('completed');
    expect(crossCheck.calls).toBe(0);
  });

  it('continue accepts the layer as it is; retry runs the checked stages and the check again', async () => {
    let verdicts = 0;
    const crossCheck = counted(() => (++verdicts === 1 ? fundamental('mismatch') : valid));
    const { plan, loops } = diamond();
    const first = paused(await runPipeline({ ...plan, crossCheck }, 'q'));

    const retried = await resumePipeline(
      { ...plan, crossCheck },
      { record: first.record, event: { type: 'pipeline.retry' } },
    );
    expect(retried.status).toBe('completed');
    expect([loops.a.attempt.calls, loops.b.attempt.calls, loops.c.attempt.calls]).toEqual([
      1, 2, 2,
    ]);
    expect(crossCheck.calls).toBe(2);

    const stillRejecting = rejectsJoin();
    const continued = await resumePipeline(
      { ...plan, crossCheck: stillRejecting },
      { record: first.record, event: { type: 'pipeline.continue' } },
    );
    expect(continued.status).toBe('completed');
    expect(stillRejecting.calls).toBe(0); // the stored verdict is not asked for again
    expect(loops.d.attempt.calls).toBe(2);
  });

  it('a checker that throws or answers garbage pauses too, saying so', async () => {
    const { plan } = diamond();
    const threw = paused(
      await runPipeline(
        {
          ...plan,
          crossCheck: () => {
            throw new Error('judge offline');
          },
        },
        'q',
      ),
    );
    expect(threw.pause.message).toMatchInlineSnapshot(
      `"the cross-check of layer 2 (b, c) failed: the cross-check threw: judge offline"`,
    );
    const garbage = paused(
      await runPipeline({ ...plan, crossCheck: () => 'looks fine' as never }, 'q'),
    );
    expect(garbage.pause.message).toMatchInlineSnapshot(
      `"the cross-check of layer 2 (b, c) failed: its answer is not a validation result (got "looks fine")"`,
    );
  });
});

describe('a stage that ends without an ok outcome', () => {
  /** Stage b keeps getting a correctable rejection on its first run and passes on later runs. */
  function exhaustingB() {
    let run = 0;
    const b = {
      maxRetries: 1,
      attempt: counted((n) => `draft ${n}`),
      validate: counted((n) => (n <= 2 ? correctable('missing totals') : valid)),
      refine: ({ input }: { input: unknown }) => {
        run += 1;
        return input;
      },
    } satisfies LoopConfig;
    return { b, runs: () => run };
  }

  it('pauses the pipeline with that outcome', async () => {
    const { b } = exhaustingB();
    const { plan, loops } = diamond({ b });
    const run = paused(await runPipeline(plan, 'q'));
    expect(run.pause.reason).toBe('stage_failed');
    expect(run.pause.stages).toEqual(['b']);
    expect(run.pause.reason === 'stage_failed' && run.pause.outcomes.b).toMatchObject({
      status: 'iteration_exhausted',
      iterations: 1,
      attempts: 2,
      error: { kind: 'iteration_exhausted', cap: 1 },
    });
    expect(run.stages.c?.status).toBe('succeeded');
    expect(loops.d.attempt.calls).toBe(0);
  });

  it('retry runs only that stage again, and the pipeline completes', async () => {
    const { b } = exhaustingB();
    const { plan, loops } = diamond({ b });
    const first = paused(await runPipeline(plan, 'q'));
    const { log, onEvent } = recorder();

    const run = await resumePipeline(plan, {
      record: first.record,
      event: { type: 'pipeline.retry', stage: 'b' },
      onEvent,
    });

    expect(run.status).toBe('completed');
    expect(log).toEqual(['started:b', 'finished:b:succeeded', 'started:d', 'finished:d:succeeded']);
    expect([loops.a.attempt.calls, loops.c.attempt.calls, loops.d.attempt.calls]).toEqual([
      1, 1, 1,
    ]);
    expect(b.attempt.calls).toBe(3);
    expect(run.stages.b).toMatchObject({
      status: 'succeeded',
      runs: 2,
      attempts: 3,
      iterations: 1,
      loopStatus: 'proceed',
    });
  });

  it('abort ends it with per-stage outcomes', async () => {
    const { b } = exhaustingB();
    const { plan } = diamond({ b });
    const first = paused(await runPipeline(plan, 'q'));

    const run = await resumePipeline(plan, {
      record: first.record,
      event: { type: 'pipeline.abort', reason: 'totals cannot be found' },
    });

    expect(run.status).toBe('aborted');
    if (run.status !== 'aborted') return;
    expect(run.ok).toBe(false);
    expect(run.abortReason).toBe('totals cannot be found');
    expect(run.message).toMatchInlineSnapshot(
      `"aborted (totals cannot be found); 2 of 4 stages succeeded; failed: b; not started: d"`,
    );
    expect(run.stages).toMatchObject({
      a: { status: 'succeeded', runs: 1, attempts: 1, iterations: 0, loopStatus: 'proceed' },
      b: {
        status: 'failed',
        runs: 1,
        attempts: 2,
        iterations: 1,
        loopStatus: 'iteration_exhausted',
      },
      c: { status: 'succeeded', runs: 1, attempts: 1, iterations: 0 },
      d: { status: 'not_started', runs: 0, attempts: 0 },
    });
    expect(Object.keys(run.results).sort()).toEqual(['a', 'c']);
  });

  it('continue skips it and its dependants, unless a dependant runs without it', async () => {
    const broken = { maxRetries: 0, attempt: () => 'x', validate: () => fundamental('no data') };
    const { plan } = diamond({ b: broken });
    const skipping = await resumePipeline(plan, {
      record: paused(await runPipeline(plan, 'q')).record,
      event: { type: 'pipeline.continue' },
    });
    expect(skipping.status === 'completed' && !skipping.ok).toBe(true);
    expect(skipping.stages.b).toMatchObject({
      status: 'skipped',
      loopStatus: 'terminate_with_partial',
    });
    expect(skipping.stages.d).toMatchObject({
      status: 'skipped',
      note: "skipped because its dependency 'b' was skipped",
    });

    const lenient = diamond({ b: broken });
    const { a, b, c, d } = lenient.stage;
    const planRunningD = { stages: [{ ...d, whenDependencySkipped: 'run' as const }, a, b, c] };
    const running = await resumePipeline(planRunningD, {
      record: paused(await runPipeline(planRunningD, 'q')).record,
      event: { type: 'pipeline.continue' },
    });
    expect(running.stages.d?.status).toBe('succeeded');
    expect(lenient.loops.d.attempt.args[0]?.[0].input).toEqual({ c: running.results.c });
  });

  it('modify runs it again with the new input', async () => {
    const picky = {
      maxRetries: 0,
      attempt: counted((_, { input }: { input: unknown }) => input),
      validate: (candidate: unknown) =>
        candidate === 'fixed' ? valid : fundamental(`cannot use ${String(candidate)}`),
    };
    const { plan } = diamond({ b: picky });
    const run = await resumePipeline(plan, {
      record: paused(await runPipeline(plan, 'q')).record,
      event: { type: 'pipeline.modify', stage: 'b', input: 'fixed' },
    });
    expect(run.status).toBe('completed');
    expect(picky.attempt.args.map(([ctx]) => ctx.input)).toEqual([{ a: run.results.a }, 'fixed']);
    expect(run.stages.b).toMatchObject({ runs: 2, input: 'fixed', status: 'succeeded' });
  });

  it('an input builder that throws fails the stage without running its loop', async () => {
    const { loops, stage } = diamond();
    const noJoinKey = () => {
      throw new Error('no join key');
    };
    const stages = [{ ...stage.d, input: noJoinKey }, stage.a, stage.b, stage.c];
    const run = paused(await runPipeline({ stages }, 'q'));
    expect(run.pause.message).toMatchInlineSnapshot(
      `"stage 'd' ended as permanent_failure: the input builder of stage 'd' threw: no join key"`,
    );
    expect(loops.d.attempt.calls).toBe(0);
  });

  it('an event that does not fit the pause throws, naming the stage', async () => {
    const { plan } = diamond({ b: { ...stageLoop('b'), validate: () => fundamental('no') } });
    const first = paused(await runPipeline(plan, 'q'));
    await expect(
      resumePipeline(plan, { record: first.record, event: { type: 'pipeline.retry', stage: 'd' } }),
    ).rejects.toMatchObject({
      name: 'CheckpointError',
      code: 'not_waiting',
      message:
        "loopchart: pipeline.retry for stage 'd' does not apply to this pause (layer 2, stage_failed: b); a stage must belong to the paused layer",
    });
  });
});

describe('checkpoints and aborts', () => {
  it('a checkpoint stage pauses for review after it succeeds; continue approves it', async () => {
    const { loops, stage } = diamond();
    const reviewed = { stages: [stage.d, { ...stage.b, checkpoint: true }, stage.c, stage.a] };
    const run = paused(await runPipeline(reviewed, 'q'));
    expect(run.pause).toMatchObject({ reason: 'checkpoint', layer: 2, stages: ['b'] });
    expect(run.pause.reason === 'checkpoint' && run.pause.results.b).toEqual(run.results.b);
    expect(loops.d.attempt.calls).toBe(0);
    const done = await resumePipeline(reviewed, {
      record: run.record,
      event: { type: 'pipeline.continue' },
    });
    expect(done.status).toBe('completed');
    expect(done.stages.b?.reviewed).toBe(true);
  });

  it("aborting while stages run aborts their in-flight steps' signals", async () => {
    const aborted = deferred<string>();
    const running = deferred<void>();
    const slow = stageLoop('a', (_, __) => undefined);
    slow.attempt = counted((_, ctx: { signal: AbortSignal }) => {
      running.resolve();
      ctx.signal.addEventListener('abort', () => aborted.resolve('aborted'));
      return new Promise(() => {});
    }) as never;
    const controller = new AbortController();
    const pending = runPipeline({ stages: [{ id: 'a', loop: slow }] }, 'q', {
      signal: controller.signal,
    });
    await running.promise;
    controller.abort('user closed the tab');
    const run = await pending;
    expect(await aborted.promise).toBe('aborted');
    expect(run).toMatchObject({
      status: 'aborted',
      abortReason: 'user closed the tab',
      stages: { a: { status: 'aborted', note: 'aborted while running: user closed the tab' } },
    });
  });
});

function rejectAfter(ms: number, message: string) {
  return new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(message)), ms).unref(),
  );
}
