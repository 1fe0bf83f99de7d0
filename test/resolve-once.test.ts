/**
 * A loop config is resolved once on every path (issue 31): `compileLoop` resolves it, and
 * runLoop, resumeLoop, a pipeline's stages, a DBOS loop and the agent run the plan without
 * resolving it again. Counts the calls of `resolveConfig` itself. The DBOS loop runs in this
 * process on the local Postgres server, in a database of its own dropped after.
 */
import {
  compileLoop,
  type LoopConfig,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { createAgent, runAgent, type StageRegistry } from 'loopchart/agent';
import { registerLoop } from 'loopchart/dbos';
import { type PipelinePlan, runPipeline } from 'loopchart/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../src/core/vocabulary/config.js';
import { dbosInProcess } from './dbos/dbosInProcess.js';
import { postgresReachable } from './support/postgresServer.js';
import { correctable, valid } from './support/scriptedSteps.js';

vi.mock('../src/core/vocabulary/config.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/core/vocabulary/config.js')>();
  return { ...actual, resolveConfig: vi.fn(actual.resolveConfig) };
});

const resolves = vi.mocked(resolveConfig);
/** How many configs `work` resolved. */
async function resolvedBy(work: () => unknown): Promise<number> {
  resolves.mockClear();
  await work();
  return resolves.mock.calls.length;
}

const loop = (): LoopConfig<string, string> => ({
  maxRetries: 2,
  attempt: ({ input, attempt }) => `${input} #${attempt}`,
  validate: (candidate) => (candidate.endsWith('#2') ? valid : correctable('again')),
});
const reviewed = (): LoopConfig<string, string> => ({ ...loop(), review: { beforeProceed: true } });

const reachable = await postgresReachable();
let registered = -1;
const dbosLoop = await (async () => {
  resolves.mockClear();
  const registration = registerLoop(loop(), { name: 'resolved-once' });
  registered = resolves.mock.calls.length;
  return registration;
})();
dbosInProcess('resolveonce', reachable);

describe('a loop config is resolved once', () => {
  it('runLoop: once per config it is given, never for a plan', async () => {
    expect(await resolvedBy(() => runLoop(loop(), 'q'))).toBe(1);
    const plan = compileLoop(loop());
    expect(await resolvedBy(() => runLoop(plan, 'q'))).toBe(0);
    const store = new MemoryCheckpointStore();
    expect(await resolvedBy(() => runLoop(loop(), 'q', { store }))).toBe(1);
    expect(await resolvedBy(() => runLoop(plan, 'q', { store }))).toBe(0);
  });

  it('resumeLoop: once per config, never for a plan', async () => {
    const store = new MemoryCheckpointStore();
    const plan = compileLoop(reviewed());
    const paused = await runLoop(plan, 'q', { store, runId: 'r1' });
    expect(paused.status).toBe('paused');
    const answer = { type: 'review.continue' } as const;
    let outcome: unknown;
    expect(
      await resolvedBy(async () => {
        outcome = await resumeLoop(reviewed(), { store, runId: 'r1', event: answer });
      }),
    ).toBe(1);
    expect(outcome).toMatchObject({ status: 'proceed' });
    await runLoop(plan, 'q', { store, runId: 'r2' });
    expect(await resolvedBy(() => resumeLoop(plan, { store, runId: 'r2', event: answer }))).toBe(0);
  });

  it('a pipeline of four stages: once per stage loop, with or without a store', async () => {
    const plan: PipelinePlan = {
      stages: [
        { id: 'a', loop: loop() },
        { id: 'b', loop: loop(), dependsOn: ['a'] },
        { id: 'c', loop: loop(), dependsOn: ['a'] },
        { id: 'd', loop: loop(), dependsOn: ['b', 'c'] },
      ],
    };
    let status: unknown;
    const run = (options = {}) =>
      resolvedBy(async () => {
        status = (await runPipeline(plan, 'q', options)).status;
      });
    expect(await run()).toBe(4);
    expect(status).toBe('completed');
    expect(await run({ store: new MemoryCheckpointStore() })).toBe(4);
    expect(status).toBe('completed');
    const compiled: PipelinePlan = {
      stages: plan.stages.map((stage) => ({ ...stage, loop: compileLoop(loop()) })),
    };
    expect(await resolvedBy(() => runPipeline(compiled, 'q'))).toBe(0);
  });

  it('the agent: each loop once when it is created, none when it runs', async () => {
    const registry: StageRegistry = {
      lookup: { loop: { attempt: ({ input }) => `found ${String(input)}`, validate: () => valid } },
    };
    const plan = () =>
      '{"stages":[{"id":"x","kind":"lookup"},{"id":"y","kind":"lookup","dependsOn":["x"]}]}';
    let agent: ReturnType<typeof createAgent<string>> | undefined;
    // the task, its single-shot form, the registry's one kind and the planner loop
    expect(
      await resolvedBy(() => {
        agent = createAgent({
          task: { ...loop(), validate: () => valid },
          planner: { plan },
          registry,
        });
      }),
    ).toBe(4);
    const ready = agent as NonNullable<typeof agent>;
    for (const shape of ['single-shot', 'loop', 'pipeline'] as const) {
      let outcome: { ok: boolean; shape?: string | undefined } | undefined;
      expect(
        await resolvedBy(async () => {
          outcome = await runAgent(ready, 'compare x and y', { shape });
        }),
      ).toBe(0);
      expect(outcome).toMatchObject({ ok: true, shape });
    }
  });

  it.runIf(reachable)('a DBOS loop: once when it is registered, none when it runs', async () => {
    expect(registered).toBe(1);
    let status: unknown;
    expect(
      await resolvedBy(async () => {
        const handle = await dbosLoop.start('q', { workflowID: 'resolved-once-1' });
        status = (await handle.getResult()).status;
      }),
    ).toBe(0);
    expect(status).toBe('proceed');
  });
});
