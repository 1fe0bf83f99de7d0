/**
 * An answer to an agent's shape-choice brief runs once (SPEC §6, one writer per run): answers that
 * arrive together — in one process, in two processes, as two HTTP POSTs — take the brief by the
 * store's compare-and-set; one runs the chosen shape, the others fail with `conflict` before any
 * step. A writer killed after taking the brief leaves it stored, claimed and then recoverable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CheckpointStore,
  isCheckpointError,
  type LoopConfig,
  MemoryCheckpointStore,
  recoverRuns,
} from 'loopchart';
import { createAgent, resumeAgent, runAgent } from 'loopchart/agent';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { describe, expect, it } from 'vitest';
import { childLibrary } from './support/childLibrary.js';
import { PG_URL, postgresReachable } from './support/postgresServer.js';
import { readJournal } from './support/readJournal.js';

const request = 'What is the VAT rate in Spain?'; // the heuristic says single-shot, the model pipeline
const valid = () => ({ valid: true }) as const;
const TOKEN = 'once-token-0123456789abcdef';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const childScript = join(root, 'test', 'agent', 'onceChild.mjs');
const reachable = await postgresReachable();
const built = childLibrary(
  'agentonce',
  ['entries/index.ts', 'entries/sqlite.ts', 'entries/postgres.ts', 'entries/agent.ts'],
  reachable,
);
const { schema } = built;

type Kind = 'sqlite' | 'postgres';
const KINDS = [
  ['sqlite', true],
  ['postgres', reachable],
] as const;

function openStore(kind: Kind): CheckpointStore & { close(): unknown } {
  return kind === 'sqlite'
    ? new SqliteCheckpointStore(join(built.base, 'runs.db'))
    : new PostgresCheckpointStore({ connectionString: PG_URL, schema });
}

/** The agent of onceChild.mjs, counting its calls here. */
function countingAgent() {
  const calls = { task: 0, planner: 0, stage: 0 };
  const stage: LoopConfig<string, string> = {
    attempt: () => {
      calls.stage += 1;
      return '21%';
    },
    validate: valid,
  };
  const agent = createAgent<string>({
    task: {
      attempt: ({ input }) => {
        calls.task += 1;
        return `answer to ${input}`;
      },
      validate: valid,
      maxRetries: 2,
    },
    router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
    planner: {
      plan: () => {
        calls.planner += 1;
        return '{"stages":[{"id":"rate","kind":"lookup"}]}';
      },
    },
    registry: { lookup: { loop: stage } },
  });
  return { agent, calls };
}

const unique = (label: string) => `${label}-${process.pid}-${Math.random().toString(36).slice(2)}`;

/** Stores a fresh brief (checkpoint #1) under a new run id. */
async function storedBrief(store: CheckpointStore, label: string) {
  const runId = unique(label);
  const outcome = await runAgent(countingAgent().agent, request, { store, runId });
  expect(outcome.status).toBe('paused');
  expect(await store.load(runId)).toMatchObject({ seq: 1, state: 'awaitingShapeChoice' });
  return runId;
}

const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'rejected' && isCheckpointError(result.reason) ? result.reason.code : 'ran';

describe.each(KINDS)('answers at once in one process, on %s', (kind, available) => {
  it.skipIf(!available).each([
    ['single-shot', 'proceed', { task: 1, planner: 0, stage: 0 }],
    ['pipeline', 'completed', { task: 0, planner: 1, stage: 1 }],
  ] as const)(
    'five answers of %s: one runs it, four get conflict',
    async (shape, status, once_) => {
      const store = openStore(kind);
      try {
        const runId = await storedBrief(store, `five-${shape}`);
        const { agent, calls } = countingAgent();
        const event = { type: 'shape.choose', shape } as const;
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => resumeAgent(agent, { store, runId, event, ifSeq: 1 })),
        );
        expect(results.map(codeOf).sort()).toEqual([
          'conflict',
          'conflict',
          'conflict',
          'conflict',
          'ran',
        ]);
        const ran = results.find((result) => result.status === 'fulfilled');
        expect(ran?.status === 'fulfilled' && ran.value).toMatchObject({ status, shape });
        expect(calls).toEqual(once_);

        // the shape's run saved over the taken brief (#2): one row, numbered on from it
        const row = await store.load(runId);
        expect(row?.status).toBe('done');
        expect(row?.seq).toBeGreaterThan(2);
        // a late answer, with or without ifSeq, is refused and changes nothing
        for (const ifSeq of [1, undefined]) {
          const late = resumeAgent(agent, { store, runId, event, ...(ifSeq ? { ifSeq } : {}) });
          await expect(late).rejects.toMatchObject({ code: 'conflict' });
        }
        expect(await store.load(runId)).toEqual(row);
        expect(calls).toEqual(once_);
      } finally {
        await store.close();
      }
    },
  );
});

describe('a refused answer leaves the brief byte-identical', () => {
  it('an offered shape after a wrong one or a stale ifSeq still runs once', async () => {
    const store = new MemoryCheckpointStore();
    const runId = await storedBrief(store, 'refused');
    const row = await store.load(runId);
    const { agent, calls } = countingAgent();
    const wrong = { type: 'shape.choose', shape: 'loop' } as const;
    await expect(resumeAgent(agent, { store, runId, event: wrong })).rejects.toThrow(
      /invalid answer/,
    );
    const event = { type: 'shape.choose', shape: 'single-shot' } as const;
    const stale = resumeAgent(agent, { store, runId, event, ifSeq: 2 });
    await expect(stale).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.load(runId)).toEqual(row);
    expect(calls).toEqual({ task: 0, planner: 0, stage: 0 });
    await expect(resumeAgent(agent, { store, runId, event, ifSeq: 1 })).resolves.toMatchObject({
      status: 'proceed',
    });
    expect(calls.task).toBe(1);
  });
});

describe('a run whose shape saved nothing', () => {
  it('marks the brief answered and ended; a later answer gets conflict', async () => {
    const store = new MemoryCheckpointStore();
    const runId = await storedBrief(store, 'unplanned');
    let plans = 0;
    const agent = createAgent<string>({
      task: { attempt: () => 'x', validate: valid },
      router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
      planner: {
        plan: () => {
          plans += 1;
          return '{"stages":[{"id":"a","kind":"nope"}]}'; // never a plan of this registry
        },
      },
      registry: { lookup: { loop: { attempt: () => '21%', validate: valid } } },
    });
    const event = { type: 'shape.choose', shape: 'pipeline' } as const;
    const ended = await resumeAgent(agent, { store, runId, event, ifSeq: 1 });
    expect(ended.ok).toBe(false);
    const row = await store.load(runId);
    expect(row).toMatchObject({ seq: 3, status: 'done', state: ended.status });
    const { taken, claim } = JSON.parse(row?.data ?? '');
    expect([taken, claim]).toEqual([{ shape: 'pipeline', status: ended.status }, undefined]);
    const tried = plans;
    for (const ifSeq of [3, undefined]) {
      const late = resumeAgent(agent, { store, runId, event, ...(ifSeq ? { ifSeq } : {}) });
      await expect(late).rejects.toMatchObject({ code: 'conflict', message: /already answered/ });
    }
    expect(await store.load(runId)).toEqual(row);
    expect(plans).toBe(tried);
  });
});

interface Entry {
  pid: number;
  type: 'start' | 'task' | 'planner' | 'stage' | 'result';
  result?: { status?: string; error?: string; message?: string };
}

function child(kind: Kind, work: string, env: Record<string, string>) {
  const proc = spawn(process.execPath, [childScript], {
    env: {
      ...process.env,
      LIB: built.lib,
      STORE: kind,
      DB: kind === 'sqlite' ? join(built.base, 'runs.db') : schema,
      PG_URL,
      WORK: work,
      MODE: 'answer',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk) => (out += chunk));
  proc.stderr.on('data', (chunk) => (err += chunk));
  const result = once(proc, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`child exited ${code}: ${err}`);
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Entry['result'];
  });
  result.catch(() => {});
  return { proc, result, go: () => proc.stdin.end('go\n') };
}

const journalOf = (work: string) => readJournal<Entry>(work);
const count = (work: string, type: Entry['type'], pid?: number) =>
  journalOf(work).filter((entry) => entry.type === type && (pid === undefined || entry.pid === pid))
    .length;

async function until(ready: () => boolean | Promise<boolean>, what: string, proc?: ChildProcess) {
  const deadline = Date.now() + 20_000;
  while (!(await ready())) {
    if (proc && proc.exitCode !== null) throw new Error(`child exited before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(KINDS)('answers at once in two processes, on %s', (kind, available) => {
  it.skipIf(!available)(
    'both loaded and let go together: one runs the pipeline, the other gets conflict',
    async () => {
      const store = openStore(kind);
      try {
        const runId = await storedBrief(store, 'procs');
        const work = mkdtempSync(join(built.base, `${kind}-procs-`));
        const env = { RUN: runId, SHAPE: 'pipeline', IFSEQ: '1', GATE: '1' };
        const answers = [child(kind, work, env), child(kind, work, env)];
        for (const answer of answers)
          await until(() => count(work, 'start', answer.proc.pid) === 1, 'load', answer.proc);
        for (const answer of answers) answer.go();
        const results = await Promise.all(answers.map((answer) => answer.result));
        const sorted = results.map((result) => result?.status ?? result?.error).sort();
        expect(sorted, JSON.stringify(results)).toEqual(['completed', 'conflict']);
        expect([count(work, 'planner'), count(work, 'stage'), count(work, 'task')]).toEqual([
          1, 1, 0,
        ]);
        expect(await store.load(runId)).toMatchObject({ status: 'done' });
      } finally {
        await store.close();
      }
    },
    60_000,
  );
});

describe.each(KINDS)('a writer killed after taking the brief, on %s', (kind, available) => {
  it.skipIf(!available)(
    'leaves the brief stored and claimed (renewed while it lived), recoverable once the claim lapses',
    async () => {
      const store = openStore(kind);
      try {
        const runId = await storedBrief(store, 'killed');
        const brief = JSON.parse((await store.load(runId))?.data ?? '');
        const work = mkdtempSync(join(built.base, `${kind}-killed-`));
        const env = { RUN: runId, SHAPE: 'pipeline', IFSEQ: '1', HANG: '1', CLAIM_TTL_MS: '3000' };
        const writer = child(kind, work, env);
        await until(() => count(work, 'planner') === 1, 'the planner', writer.proc);
        // the claim is renewed (every third of its time to live) while the planner runs
        await until(async () => ((await store.load(runId))?.seq ?? 0) >= 3, 'a renewal');
        writer.proc.kill('SIGKILL');
        await once(writer.proc, 'exit');

        const row = await store.load(runId);
        expect(row).toMatchObject({ status: 'running', state: 'shapeChosen' });
        const { taken, claim, ...rest } = JSON.parse(row?.data ?? '');
        expect(rest).toEqual(brief); // the brief itself is kept, as it was
        expect(taken).toEqual({ shape: 'pipeline' });
        expect(claim.owner).toContain(`pid ${writer.proc.pid}/`);
        expect(claim.expiresAt).toBeGreaterThan(Date.now());

        // while the dead writer's claim holds: an answer is refused, recoverRuns leaves it
        const { agent, calls } = countingAgent();
        const event = { type: 'shape.choose', shape: 'pipeline' } as const;
        const seq = row?.seq as number;
        const early = resumeAgent(agent, { store, runId, event, ifSeq: seq });
        await expect(early).rejects.toMatchObject({ code: 'conflict' });
        const held = await recoverRuns(store, {});
        expect(held.stillClaimed.map((entry) => entry.runId)).toContain(runId);
        expect(calls).toEqual({ task: 0, planner: 0, stage: 0 });
        expect(await store.load(runId)).toEqual(row);

        // lapsed: recoverRuns reports it (no loop drives an agent's brief), an answer takes it
        await until(() => Date.now() > claim.expiresAt, 'the claim to lapse');
        const lapsed = await recoverRuns(store, {});
        expect(lapsed.unknownLoop).toContainEqual({ runId, machineId: row?.machineId });
        expect(await store.load(runId)).toEqual(row);
        const done = await resumeAgent(agent, { store, runId, event, ifSeq: seq });
        expect(done).toMatchObject({ status: 'completed', shape: 'pipeline' });
        expect(calls).toEqual({ task: 0, planner: 1, stage: 1 });
        expect(await store.load(runId)).toMatchObject({ status: 'done' });
      } finally {
        await store.close();
      }
    },
    60_000,
  );
});

/**
 * `store`, whose first `n` loads of `runId` are let through in pairs: each waits for another, so
 * two requests read the row at the same time, however the server schedules them.
 */
function pairedLoads(store: CheckpointStore, runId: string, n: number): CheckpointStore {
  let seen = 0;
  let waiting: (() => void) | undefined;
  return {
    save: (record) => store.save(record),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
    load: async (id) => {
      if (id === runId && seen < n) {
        seen += 1;
        if (waiting) {
          waiting();
          waiting = undefined;
        } else await new Promise<void>((resolve) => (waiting = resolve));
      }
      return store.load(id);
    },
  };
}

describe('answers at once over HTTP (serveRuns)', () => {
  it('two POSTs of the same answer: one 200, one 409, the shape runs once', async () => {
    const store = new SqliteCheckpointStore(join(built.base, 'http.db'));
    const runId = await storedBrief(store, 'http');
    const { agent, calls } = countingAgent();
    // both requests read the brief before either goes on (their answer check, then resumeAgent's)
    const paired = pairedLoads(store, runId, 4);
    const agents = { [agent.config.id]: agent };
    const server = await serveRuns({ store: paired, agents, token: TOKEN, port: 0 });
    const post = () =>
      fetch(new URL(`/api/runs/${runId}/answer`, server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({
          event: { type: 'shape.choose', shape: 'pipeline' },
          ifSeq: 1,
          wait: true,
        }),
      });
    try {
      const replies = await Promise.all([post(), post()]);
      const bodies = await Promise.all(replies.map((reply) => reply.json()));
      expect(replies.map((reply) => reply.status).sort(), JSON.stringify(bodies)).toEqual([
        200, 409,
      ]);
      const refused = bodies[replies.findIndex((reply) => reply.status === 409)];
      expect(refused.error.code).toBe('conflict');
      expect(calls).toEqual({ task: 0, planner: 1, stage: 1 });
    } finally {
      await server.close();
      store.close();
    }
  });
});
