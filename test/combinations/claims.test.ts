/**
 * One writer per run (SPEC §6), across real processes: a writer is SIGKILLed while its step is
 * in flight; resumers in other processes then come in at once, or one while another is still in
 * the step. Between them the step in flight runs once, the loser fails with `conflict` before
 * any step of its own, and nobody takes over the dead writer's claim before it expires.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import { readJournal as readJournalOf } from '../support/readJournal.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const childScript = join(root, 'test', 'combinations', 'claimChild.mjs');
const CLAIM_TTL_MS = 2500;
const STEP_MS = 3000;
const reachable = await postgresReachable();
const schema = schemaName('claims');
let base: string;
let lib: string;

beforeAll(async () => {
  ({ base, lib } = compileLibrary('claims', ['index.ts', 'sqlite/index.ts', 'postgres/index.ts']));
  if (reachable) {
    const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
    await store.setup();
    await store.close();
  }
}, 90_000);

afterAll(async () => {
  if (base) removeLibrary(base);
  if (reachable) await dropSchema(schema);
});

interface Entry {
  type: 'start' | 'call' | 'result';
  pid: number;
  mode: 'run' | 'resume';
  result?: { status?: string; error?: string; message?: string };
}

const readJournal = (work: string) => readJournalOf<Entry>(work);
const calls = (journal: Entry[], mode: Entry['mode']) =>
  journal.filter((entry) => entry.type === 'call' && entry.mode === mode);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type StoreKind = 'sqlite' | 'postgres';

function child(kind: StoreKind, work: string, runId: string, mode: 'run' | 'resume') {
  const env = {
    ...process.env,
    LIB: lib,
    STORE: kind,
    DB: kind === 'sqlite' ? join(base, 'runs.db') : schema,
    PG_URL,
    WORK: work,
    RUN_ID: runId,
    MODE: mode,
    STEP_MS: String(STEP_MS),
    CLAIM_TTL_MS: String(CLAIM_TTL_MS),
  };
  const process_ = spawn(process.execPath, [childScript], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  process_.stdout?.on('data', (chunk) => (out += chunk));
  process_.stderr?.on('data', (chunk) => (err += chunk));
  const result = once(process_, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`child exited ${code}: ${err}`);
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Entry['result'];
  });
  result.catch(() => {});
  return { process: process_, result };
}

async function until(ready: () => boolean, what: string, proc?: ChildProcess) {
  const deadline = Date.now() + 20_000;
  while (!ready()) {
    if (proc && proc.exitCode !== null) throw new Error(`child exited before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Starts a run in a child, SIGKILLs it once its attempt is in flight; returns when it is dead. */
async function crashedRun(kind: StoreKind, label: string) {
  const work = mkdtempSync(join(base, `${kind}-${label}-`));
  const runId = `${label}-${Date.now()}`;
  const writer = child(kind, work, runId, 'run');
  await until(() => calls(readJournal(work), 'run').length === 1, 'the attempt', writer.process);
  const killedAt = Date.now();
  writer.process.kill('SIGKILL');
  await once(writer.process, 'exit');
  return { work, runId, killedAt };
}

describe.each([
  ['sqlite', true],
  ['postgres', reachable],
] as const)('one writer per run on %s, across processes', (kind, available) => {
  it.skipIf(!available)(
    "refuses a resumer while the SIGKILLed writer's claim holds, and takes over once it expires",
    async () => {
      const { work, runId, killedAt } = await crashedRun(kind, 'expiry');
      const early = await child(kind, work, runId, 'resume').result;
      const refusedAt = Date.now();
      expect(early).toMatchObject({ error: 'conflict', message: expect.stringMatching(/claim/) });
      expect(refusedAt - killedAt).toBeLessThan(CLAIM_TTL_MS);
      expect(calls(readJournal(work), 'resume')).toHaveLength(0);
      await sleep(Math.max(0, killedAt + CLAIM_TTL_MS + 100 - Date.now()));
      const late = await child(kind, work, runId, 'resume').result;
      expect(late).toEqual({ status: 'proceed' });
      expect(calls(readJournal(work), 'resume')).toHaveLength(1);
    },
    60_000,
  );

  it.skipIf(!available)(
    'two resumers at the same instant: the step in flight runs once, the loser gets conflict',
    async () => {
      const { work, runId, killedAt } = await crashedRun(kind, 'instant');
      await sleep(Math.max(0, killedAt + CLAIM_TTL_MS + 100 - Date.now()));
      const results = await Promise.all([
        child(kind, work, runId, 'resume').result,
        child(kind, work, runId, 'resume').result,
      ]);
      expect(results).toContainEqual({ status: 'proceed' });
      expect(results.find((r) => r?.status !== 'proceed')).toMatchObject({ error: 'conflict' });
      expect(calls(readJournal(work), 'resume')).toHaveLength(1);
    },
    60_000,
  );

  it.skipIf(!available)(
    'a second resumer while the first is in the step: refused with conflict, the step runs once',
    async () => {
      const { work, runId, killedAt } = await crashedRun(kind, 'inflight');
      await sleep(Math.max(0, killedAt + CLAIM_TTL_MS + 100 - Date.now()));
      const first = child(kind, work, runId, 'resume');
      await until(
        () => calls(readJournal(work), 'resume').length === 1,
        'the first resumer’s step',
      );
      const second = await child(kind, work, runId, 'resume').result;
      expect(second).toMatchObject({ error: 'conflict' });
      expect(await first.result).toEqual({ status: 'proceed' });
      // its step (STEP_MS) outlived the claim's time to live, so it renewed the claim to finish;
      // renewal.test.ts races resumers against such a renewed claim
      expect(calls(readJournal(work), 'resume')).toHaveLength(1);
    },
    60_000,
  );
});
