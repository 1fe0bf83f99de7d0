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
import { describe, expect, it } from 'vitest';
import { childLibrary } from '../support/childLibrary.js';
import { PG_URL, postgresReachable } from '../support/postgresServer.js';
import { readJournal as readJournalOf } from '../support/readJournal.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const childScript = join(root, 'test', 'combinations', 'claimChild.mjs');
const CLAIM_TTL_MS = 2500;
const STEP_MS = 3000;
const reachable = await postgresReachable();
const built = childLibrary(
  'claims',
  ['entries/index.ts', 'entries/sqlite.ts', 'entries/postgres.ts'],
  reachable,
);
const { schema } = built;

interface Entry {
  type: 'start' | 'call' | 'result';
  pid: number;
  mode: 'run' | 'resume';
  result?: { status?: string; error?: string; message?: string };
}

const readJournal = (work: string) => readJournalOf<Entry>(work);
const entries = (journal: Entry[], type: Entry['type'], mode: Entry['mode']) =>
  journal.filter((entry) => entry.type === type && entry.mode === mode);
const calls = (journal: Entry[], mode: Entry['mode']) => entries(journal, 'call', mode);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type StoreKind = 'sqlite' | 'postgres';

function child(
  kind: StoreKind,
  work: string,
  runId: string,
  mode: 'run' | 'resume',
  gated = false,
) {
  const env = {
    ...process.env,
    LIB: built.lib,
    STORE: kind,
    DB: kind === 'sqlite' ? join(built.base, 'runs.db') : schema,
    PG_URL,
    WORK: work,
    RUN_ID: runId,
    MODE: mode,
    STEP_MS: String(STEP_MS),
    CLAIM_TTL_MS: String(CLAIM_TTL_MS),
    ...(gated ? { GATE: '1' } : {}),
  };
  const process_ = spawn(process.execPath, [childScript], {
    env,
    stdio: [gated ? 'pipe' : 'ignore', 'pipe', 'pipe'],
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

/**
 * A resumer started and loaded but held before it resumes: `go()` lets it on, so a loaded machine's
 * start-up (seconds at high load) is not counted against the claim's time to live.
 */
async function heldResumer(kind: StoreKind, work: string, runId: string) {
  const resumer = child(kind, work, runId, 'resume', true);
  const pid = resumer.process.pid;
  await until(
    () => entries(readJournal(work), 'start', 'resume').some((entry) => entry.pid === pid),
    'the resumer to load',
    resumer.process,
  );
  return { ...resumer, go: () => resumer.process.stdin?.end('go\n') };
}

async function until(ready: () => boolean, what: string, proc?: ChildProcess) {
  const deadline = Date.now() + 20_000;
  while (!ready()) {
    if (proc && proc.exitCode !== null) throw new Error(`child exited before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Starts a run in a child, SIGKILLs it once its attempt is in flight; returns when it is dead.
 * `beforeKill` runs while the attempt is in flight (to load a resumer ahead of the crash).
 */
async function crashedRun(
  kind: StoreKind,
  label: string,
  beforeKill?: (work: string, runId: string) => Promise<void>,
) {
  const work = mkdtempSync(join(built.base, `${kind}-${label}-`));
  const runId = `${label}-${Date.now()}`;
  const writer = child(kind, work, runId, 'run');
  await until(() => calls(readJournal(work), 'run').length === 1, 'the attempt', writer.process);
  await beforeKill?.(work, runId);
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
      let held: Awaited<ReturnType<typeof heldResumer>> | undefined;
      const { work, runId, killedAt } = await crashedRun(kind, 'expiry', async (work, runId) => {
        held = await heldResumer(kind, work, runId);
      });
      held?.go();
      const early = await held?.result;
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
      const resumers = await Promise.all([
        heldResumer(kind, work, runId),
        heldResumer(kind, work, runId),
      ]);
      for (const resumer of resumers) resumer.go();
      const results = await Promise.all(resumers.map((resumer) => resumer.result));
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
      const [first, late] = await Promise.all([
        heldResumer(kind, work, runId),
        heldResumer(kind, work, runId),
      ]);
      first.go();
      await until(
        () => calls(readJournal(work), 'resume').length === 1,
        'the first resumer’s step',
      );
      late.go();
      const second = await late.result;
      expect(second).toMatchObject({ error: 'conflict' });
      expect(await first.result).toEqual({ status: 'proceed' });
      // its step (STEP_MS) outlived the claim's time to live, so it renewed the claim to finish;
      // renewal.test.ts races resumers against such a renewed claim
      expect(calls(readJournal(work), 'resume')).toHaveLength(1);
    },
    60_000,
  );
});
