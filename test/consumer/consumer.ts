/**
 * A consumer's file, compiled against the packed tarball by test/package.test.ts under `strict`,
 * `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes` and `skipLibCheck: false`. It imports
 * every public entry and uses each main API the way the README shows; it is compiled, not run.
 */
import {
  createLoopMachine,
  emptyResult,
  isPausedRun,
  type LoopConfig,
  type LoopEvent,
  type LoopOutcome,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
  schemaValidator,
  transientFailure,
  withCost,
} from 'loopchart';
import { createAgent, runAgent } from 'loopchart/agent';
import { classifyModelFailure } from 'loopchart/ai';
import { assertBoundedLoops, findUnboundedCycles, toMermaid } from 'loopchart/analysis';
import { registerLoop } from 'loopchart/dbos';
import { loopHealth } from 'loopchart/health';
import { createRunsMcpServer } from 'loopchart/mcp';
import { glanceLoop, machineFingerprint } from 'loopchart/persistence';
import { definePipeline, resumePipeline, runPipeline } from 'loopchart/pipeline';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { getLoopPaths } from 'loopchart/testing';
import { connectToViewer, startViewer } from 'loopchart/viewer';
import { createActor, setup, toPromise } from 'xstate';
import { z } from 'zod';

interface Ticket {
  title: string;
  body?: string;
}

const summary: LoopConfig<Ticket, string> = {
  maxRetries: 2,
  attempt: ({ input, feedback }) =>
    feedback
      ? withCost(`${input.title} (fixed)`, 3)
      : input.body
        ? input.title
        : emptyResult('no body'),
  validate: (candidate) =>
    candidate.endsWith('(fixed)')
      ? { valid: true }
      : { valid: false, error: { severity: 'correctable', message: 'not fixed yet' } },
  refine: ({ input, error }) => ({ ...input, body: `${input.body ?? ''} ${error.message}` }),
};

export async function loops(): Promise<string | undefined> {
  const outcome = await runLoop(summary, { title: 'Printer on fire' });
  const inferred = await runLoop(
    {
      attempt: ({ input }) => ({ words: input.split(' ').length }),
      validate: schemaValidator(z.object({ words: z.number() })),
    },
    'a b c',
  );
  if (inferred.status === 'proceed') inferred.candidate.words.toFixed();
  const machine = createLoopMachine({
    types: { input: {} as Ticket },
    attempt: ({ input }) => input.title.toUpperCase(),
    validate: () => ({ valid: true }),
  });
  assertBoundedLoops(machine);
  const cycles: number = findUnboundedCycles(machine).length;
  const chart: string = toMermaid(machine);
  const direct: LoopOutcome<string> = await toPromise(
    createActor(machine, { input: { input: { title: 'x' } } }).start(),
  );
  const app = setup({ actors: { summarise: machine } }).createMachine({
    invoke: {
      src: 'summarise',
      input: { input: { title: 'y' } },
      onDone: { actions: ({ event }) => event.output.status },
    },
  });
  void app;
  for (const path of getLoopPaths(machine)) void path.description;
  void [cycles, chart, direct, transientFailure('busy', { effect: 'none', retryAfterMs: 10 })];
  return outcome.status === 'proceed' ? outcome.candidate : undefined;
}

export async function pauses(): Promise<void> {
  const store = new MemoryCheckpointStore();
  const config = { ...summary, review: { beforeProceed: true } };
  const first = await runLoop(config, { title: 'a' }, { store, runId: 'r1' });
  if (isPausedRun(first) && first.pending.kind === 'review') {
    const fixed: string = first.pending.candidate.trim();
    const event: LoopEvent<Ticket, string> = { type: 'review.modify', candidate: fixed };
    await resumeLoop(config, { store, runId: 'r1', event, ifSeq: first.seq });
  }
  const sqlite = new SqliteCheckpointStore(':memory:');
  await runLoop(summary, { title: 'b' }, { store: sqlite, runId: 'r2' });
  const glance = glanceLoop((await sqlite.load('r2'))?.data ?? '');
  void glance;
  void machineFingerprint(createLoopMachine(summary), {});
  sqlite.close();
  const postgres = new PostgresCheckpointStore({ connectionString: 'postgres://localhost/test' });
  const report = await loopHealth(postgres, { loop: 'loop' });
  void report.loops.length;
  await postgres.close();
}

export async function pipelines(): Promise<number | undefined> {
  const plan = definePipeline<Ticket>({ id: 'tickets' })
    .stage('summary', { loop: summary })
    .stage('score', {
      dependsOn: ['summary'],
      input: (results) => results.summary ?? '',
      loop: { attempt: ({ input }) => input.length, validate: () => ({ valid: true }) },
    })
    .plan();
  const run = await runPipeline(plan, { title: 'c' });
  if (run.status === 'paused') {
    await resumePipeline(plan, {
      record: run.record,
      event: { type: 'pipeline.retry', stage: 'score' },
    });
  }
  return run.results.score;
}

export async function agentsAndViewer(): Promise<void> {
  const agent = createAgent({
    task: { attempt: ({ input }) => input, validate: () => ({ valid: true }) },
  });
  const outcome = await runAgent(agent, 'What is the VAT rate in Spain?');
  void outcome.shape;
  const viewer = await startViewer({ port: 0 });
  const connection = connectToViewer(viewer.inspectUrl);
  void connection;
  await viewer.close();
  void classifyModelFailure(new Error('x'));
}

export async function scaleOutAndApi(store: MemoryCheckpointStore): Promise<void> {
  const loop: LoopConfig<string, string> = {
    attempt: ({ input }) => input.toUpperCase(),
    validate: () => ({ valid: true }),
  };
  const registered = registerLoop(loop, { name: 'shout' });
  const started = await registered.start('hi', { workflowID: 'w1' });
  void started;
  const server = await serveRuns({ store, loops: { shout: loop }, port: 0 });
  await server.close();
  const mcp = createRunsMcpServer({ store, answers: false });
  void mcp.api;
}
