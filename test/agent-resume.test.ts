/**
 * The accepted plan survives a restart: a child process routes a request to a planned pipeline on
 * a SQLite store and stops at its checkpoint; a second child process, with a fresh agent, resumes
 * the run from the stored plan, runs only the remaining stage, and never calls the planner.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCheckpointError, MemoryCheckpointStore } from 'loopchart';
import { createAgent, planFromDocument, resumeAgent, runAgent } from 'loopchart/agent';
import { resumePipeline, runPipeline } from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from './support/compileLibrary.js';
import { readJournal } from './support/readJournal.js';
import { valid } from './support/scriptedSteps.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const childScript = join(root, 'test', 'agent', 'agentChild.mjs');
let base: string;
let lib: string;

beforeAll(() => {
  ({ base, lib } = compileLibrary('agent', [
    'entries/index.ts',
    'entries/sqlite.ts',
    'entries/agent.ts',
  ]));
}, 60_000);
afterAll(() => {
  if (base) removeLibrary(base);
});

interface Entry {
  pid: number;
  mode: 'run' | 'resume';
  type: 'planner' | 'stage';
  kind?: string;
  input?: unknown;
}

async function child(mode: 'run' | 'resume', work: string, db: string) {
  const request = 'Compare the Q3 revenue of Acme and Globex in a summary table';
  const proc = spawn(process.execPath, [childScript], {
    env: { ...process.env, LIB: lib, MODE: mode, DB: db, WORK: work, REQUEST: request },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => (out += chunk));
  proc.stderr.on('data', (chunk) => (err += chunk));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const [code] = await once(proc, 'exit');
  clearTimeout(timer);
  expect(code, err).toBe(0);
  return { result: JSON.parse(out), pid: proc.pid };
}

const journalOf = (work: string): Entry[] => readJournal<Entry>(work);

describe('a planned pipeline resumed in a new process', () => {
  it('runs the remaining stages of the stored plan and never calls the planner again', async () => {
    const work = mkdtempSync(join(base, 'resume-'));
    const db = join(work, 'runs.db');

    const first = await child('run', work, db);
    expect(first.result).toMatchObject({
      status: 'paused',
      shape: 'pipeline',
      decidedBy: 'heuristic',
      pause: 'checkpoint',
    });
    expect(first.result.trace).toEqual([
      ['routing', 'heuristic'],
      ['planning', 'proceed'],
      ['pipeline', 'paused'],
    ]);
    const store = new SqliteCheckpointStore(db);
    const row = await store.load('compare-q3');
    store.close();
    const record = JSON.parse(row?.data ?? '{}');
    expect(row?.status).toBe('paused');
    expect(record.planSource.format).toBe('loopchart.agent.plan');
    expect(record.planSource.plan.stages.map((s: { id: string }) => s.id)).toEqual([
      'acme',
      'globex',
      'rank',
      'table',
    ]);
    expect(record.planSource.decision.shape).toBe('pipeline');

    const second = await child('resume', work, db);
    expect(second.pid).not.toBe(first.pid);
    expect(second.result).toMatchObject({
      status: 'completed',
      shape: 'pipeline',
      decidedBy: 'heuristic',
    });
    expect(second.result.trace).toEqual([['pipeline', 'completed']]);
    expect(second.result.results.table).toBe('1. acme\n2. globex');

    const journal = journalOf(work);
    const calls = (mode: string) =>
      journal
        .filter((e) => e.mode === mode)
        .map((e) => (e.type === 'planner' ? 'planner' : e.kind));
    expect(calls('run')).toEqual(['planner', 'lookup', 'lookup', 'compare']);
    expect(calls('resume')).toEqual(['table']);
    expect(journal.filter((e) => e.type === 'planner')).toHaveLength(1);
    expect(journal.find((e) => e.mode === 'resume')?.input).toEqual(['acme', 'globex']);
  });
});

describe('resumeAgent refuses records it cannot continue', () => {
  const agent = createAgent({
    task: { attempt: () => 'x', validate: () => valid },
    planner: { plan: () => '{"stages":[{"id":"a","kind":"lookup"}]}' },
    registry: { lookup: { loop: { attempt: () => 'row', validate: () => valid } } },
  });
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) =>
        isCheckpointError(error) ? `${error.code}: ${error.message}` : String(error),
    );

  it('no record, a pipeline without an agent plan, a plan that does not fit this registry', async () => {
    const store = new MemoryCheckpointStore();
    expect(await codeOf(resumeAgent(agent, { store, runId: 'none' }))).toBe(
      "not_found: loopchart: no record for run 'none'",
    );

    await runPipeline(
      {
        stages: [{ id: 'a', loop: { attempt: () => 1, validate: () => valid }, checkpoint: true }],
      },
      'q',
      { store, runId: 'plain' },
    );
    expect(await codeOf(resumeAgent(agent, { store, runId: 'plain' }))).toBe(
      "corrupt: loopchart: run 'plain' holds no plan of an agent (a single-shot or loop run continues with resumeLoop(agent.config.task, …))",
    );

    const other = createAgent({
      task: { attempt: () => 'x', validate: () => valid },
      planner: { plan: () => '{"stages":[{"id":"a","kind":"scrape"}]}' },
      registry: { scrape: { loop: { attempt: () => 'row', validate: () => valid } } },
      pipeline: { id: 'scraping' },
    });
    await runAgent(other, 'Compare A and B', { store, runId: 'scraped' });
    expect(await codeOf(resumeAgent(agent, { store, runId: 'scraped' }))).toBe(
      "other_machine: loopchart: run 'scraped': its stored plan does not fit this agent (stage 'a' has the unknown kind 'scrape' (known kinds: lookup))",
    );
  });
});

describe('a store failure', () => {
  it('rejects runAgent with the CheckpointError, in the loop and the pipeline shapes', async () => {
    const broken = new MemoryCheckpointStore();
    broken.save = async () => {
      throw new Error('disk full');
    };
    const agent = createAgent({
      task: { attempt: () => 'x', validate: () => valid },
      planner: { plan: () => '{"stages":[{"id":"a","kind":"lookup"}]}' },
      registry: { lookup: { loop: { attempt: () => 'row', validate: () => valid } } },
    });
    for (const request of ['Draft a memo', 'Compare A and B']) {
      const error = await runAgent(agent, request, { store: broken, runId: 'r' }).catch(
        (e: unknown) => e,
      );
      expect(isCheckpointError(error) && error.code, request).toBe('save_failed');
    }
  });
});

describe('without a store', () => {
  it('a paused planned pipeline continues from its record with the plan it carries', async () => {
    const lookup = { attempt: ({ input }: { input: unknown }) => input, validate: () => valid };
    const registry = { lookup: { loop: lookup } };
    const agent = createAgent({
      task: { attempt: () => 'x', validate: () => valid },
      planner: {
        plan: () =>
          '{"stages":[{"id":"a","kind":"lookup","checkpoint":true},{"id":"b","kind":"lookup","dependsOn":["a"]}]}',
      },
      registry,
    });
    const paused = await runAgent(agent, 'Compare A and B');
    if (paused.pipeline?.status !== 'paused' || !paused.plan)
      throw new Error(`expected a pause, got ${paused.status}`);
    expect(paused.pipeline.record.planSource).toMatchObject({
      format: 'loopchart.agent.plan',
      plan: paused.plan,
    });
    const done = await resumePipeline(planFromDocument(paused.plan, registry), {
      record: paused.pipeline.record,
      event: { type: 'pipeline.continue' },
    });
    expect(done.status === 'completed' && done.ok).toBe(true);
  });
});
