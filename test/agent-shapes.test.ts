import { isLoopConfigError, type RunResult, transientFailure } from 'loopchart';
import { type AgentConfig, createAgent, runAgent } from 'loopchart/agent';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { correctable, counted, valid } from './support/scriptedSteps.js';

/** A task whose first candidate is rejected (correctable) and whose refined one passes. */
function twoStepTask() {
  const attempt = counted((n: number) => `draft ${n}`);
  const validate = counted((n: number) => (n === 1 ? correctable('add the total') : valid));
  const refine = counted((_n: number, { input }: { input: string }) => `${input} (with the total)`);
  const fallback = counted(() => 'the template answer');
  return {
    task: { attempt, validate, refine, fallback, maxRetries: 2 },
    attempt,
    validate,
    refine,
    fallback,
  };
}

describe('single-shot: one attempt, one validation, the honest outcome', () => {
  it('a rejected candidate ends iteration_exhausted: no refine, no fallback', async () => {
    const steps = twoStepTask();
    const outcome = await runAgent(createAgent({ task: steps.task }), 'What is the total?');
    expect(outcome).toMatchObject({
      shape: 'single-shot',
      status: 'iteration_exhausted',
      ok: false,
    });
    expect([
      steps.attempt.calls,
      steps.validate.calls,
      steps.refine.calls,
      steps.fallback.calls,
    ]).toEqual([1, 1, 0, 0]);
    expect(outcome.result).toMatchObject({ attempts: 1, iterations: 0, partial: 'draft 1' });
  });

  it('singleShot.fallback: true lets it use the fallback once', async () => {
    const steps = twoStepTask();
    const agent = createAgent({ task: steps.task, singleShot: { fallback: true } });
    const outcome = await runAgent(agent, 'What is the total?');
    expect(outcome).toMatchObject({ status: 'fallback', ok: true });
    expect(outcome.result?.status === 'fallback' && outcome.result.candidate).toBe(
      'the template answer',
    );
    expect([steps.attempt.calls, steps.refine.calls, steps.fallback.calls]).toEqual([1, 0, 1]);
  });

  it('the same task routed as a loop refines and proceeds', async () => {
    const steps = twoStepTask();
    const outcome = await runAgent(createAgent({ task: steps.task }), 'Draft the total');
    expect(outcome).toMatchObject({ shape: 'loop', status: 'proceed', ok: true });
    expect(outcome.result?.status === 'proceed' && outcome.result.candidate).toBe('draft 2');
    expect([steps.attempt.calls, steps.refine.calls, steps.fallback.calls]).toEqual([2, 1, 0]);
    expect(outcome.trace.map((e) => [e.state, e.status])).toEqual([
      ['routing', 'heuristic'],
      ['loop', 'proceed'],
    ]);
  });

  it('a transient failure is not retried: the one attempt is the ceiling', async () => {
    const attempt = counted(() => {
      throw transientFailure('503', { effect: 'none', retryAfterMs: 5 });
    });
    const outcome = await runAgent(
      createAgent({ task: { attempt, validate: () => valid } }),
      'What is it?',
    );
    expect(outcome).toMatchObject({ shape: 'single-shot', status: 'ceiling_stop' });
    expect(attempt.calls).toBe(1);
  });

  it('an aborted run ends aborted in the chosen shape', async () => {
    const controller = new AbortController();
    const task = {
      attempt: ({ signal }: { signal: AbortSignal }) =>
        new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
      validate: () => valid,
    };
    const run = runAgent(createAgent({ task }), 'Draft it', { signal: controller.signal });
    setTimeout(() => controller.abort('the user left'), 20);
    const outcome = await run;
    expect(outcome).toMatchObject({ shape: 'loop', status: 'aborted', ok: false });
  });
});

describe('types', () => {
  it("an outcome's result carries the task's candidate type", async () => {
    const agent = createAgent({ task: { attempt: () => 42, validate: () => valid } });
    const outcome = await runAgent(agent, 'How many?');
    expectTypeOf(outcome.result).toEqualTypeOf<RunResult<number> | undefined>();
    expect(outcome.result?.status === 'proceed' && outcome.result.candidate).toBe(42);
    // @ts-expect-error the request is text
    await expect(runAgent(agent, { question: 'How many?' })).rejects.toThrow(
      'request: must be a string',
    );
  });
});

describe('agent config errors name the field', () => {
  const task = { attempt: () => 'x', validate: () => valid };
  const messageOf = (config: unknown) => {
    try {
      createAgent(config as AgentConfig);
    } catch (error) {
      expect(isLoopConfigError(error)).toBe(true);
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it.each<[string, unknown, string]>([
    ['no task', {}, 'task: must be a loop config ({ attempt, validate, … })'],
    ['a bad task', { task: { ...task, maxRetries: -1 } }, 'task is not a valid loop config'],
    [
      'a bad model check cap',
      { task, router: { modelCheck: { ask: () => 'simple', timeoutMs: 0 } } },
      'router.modelCheck.timeoutMs: must be an integer from 1 to 60000',
    ],
    [
      'a bad rule',
      { task, router: { rules: [{ id: 'r', shape: 'tree', match: 'x', reason: 'y' }] } },
      'router.rules.0.shape: must be one of single-shot, loop, pipeline',
    ],
    [
      'a planner without a registry',
      { task, planner: { plan: () => '{}' } },
      'registry: is required with a planner',
    ],
    [
      'a registry without a planner',
      { task, registry: { a: { loop: task } } },
      'planner: is required with a registry',
    ],
    [
      'a bad registry loop',
      { task, planner: { plan: () => '{}' }, registry: { a: { loop: { attempt: 1 } } } },
      'registry.a.loop is not a valid loop config',
    ],
    [
      'a bad planner loop',
      {
        task,
        planner: { plan: () => '{}', loop: { maxRetries: 99 } },
        registry: { a: { loop: task } },
      },
      'planner.loop is not a valid loop config',
    ],
    ['a typo', { task, planer: {} }, 'planer: is not an option (did you mean planner?)'],
  ])('%s', (_, config, expected) => {
    expect(messageOf(config)).toContain(expected);
  });
});
