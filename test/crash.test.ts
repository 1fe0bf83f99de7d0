/**
 * Crash tests: a child process runs a loop on a SQLite store and is SIGKILLed at a chosen point
 * (attempt in flight, retry delay, paused for a person); a fresh process resumes the run. The
 * children load a build of src compiled here, so the test needs no prior `npm run build`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceEntry } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from './support/compileLibrary.js';
import { readJournal as readJournalOf } from './support/readJournal.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const childScript = join(root, 'test', 'crash', 'crashChild.mjs');
let base: string;
let lib: string;
let db: string;

beforeAll(() => {
  ({ base, lib } = compileLibrary('crash', ['entries/index.ts', 'entries/sqlite.ts']));
  db = join(base, 'runs.db');
}, 60_000);

afterAll(() => {
  if (base) removeLibrary(base);
});

interface Entry {
  type: 'start' | 'call' | 'saved' | 'trace' | 'result';
  mode: 'run' | 'resume';
  at: number;
  state?: string;
  retryAt?: number;
  trace?: TraceEntry[];
  result?: { status?: string };
}

const readJournal = (work: string) => readJournalOf<Entry>(work);

function spawnChild(work: string, scenario: string, mode: 'run' | 'resume', event?: object) {
  const env = { ...process.env, LIB: lib, SCENARIO: scenario, MODE: mode, DB: db, WORK: work };
  const child = spawn(process.execPath, [childScript], {
    env: event ? { ...env, EVENT: JSON.stringify(event) } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (err += chunk));
  return { child, output: () => out, errors: () => err };
}

/** Runs a scenario in a child and SIGKILLs it once `ready(journal)` holds (plus `thenWaitMs`). */
async function crashWhen(scenario: string, ready: (journal: Entry[]) => boolean, thenWaitMs = 0) {
  const work = mkdtempSync(join(base, `${scenario}-`));
  const { child, errors } = spawnChild(work, scenario, 'run');
  const deadline = Date.now() + 20_000;
  while (!ready(readJournal(work))) {
    if (child.exitCode !== null) throw new Error(`child exited early: ${errors()}`);
    if (Date.now() > deadline) throw new Error(`kill point never reached: ${errors()}`);
    await sleep(20);
  }
  await sleep(thenWaitMs);
  await kill(child);
  await claimLapsed(scenario); // the child's 300 ms claim on the run (crashChild.mjs)
  return work;
}

/** Waits until the claim a killed writer left on `runId` has expired (a paused run holds none). */
async function claimLapsed(runId: string) {
  const row = await storedRow(runId);
  const claim = row ? (JSON.parse(row.data).claim as { expiresAt: number } | undefined) : undefined;
  if (claim) await sleep(Math.max(0, claim.expiresAt + 5 - Date.now()));
}

async function resumeIn(work: string, scenario: string, event?: object) {
  const { child, output, errors } = spawnChild(work, scenario, 'resume', event);
  const [code] = await once(child, 'exit');
  expect(code, errors()).toBe(0);
  return JSON.parse(output().trim().split('\n').at(-1) ?? 'null');
}

async function kill(child: ChildProcess) {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const calls = (journal: Entry[]) => journal.filter((e) => e.type === 'call');
const saved = (state: string) => (journal: Entry[]) =>
  journal.some((e) => e.type === 'saved' && e.state === state);

/** Every trace entry the killed process held must be in the resumed run's trace. */
function expectTraceKept(journal: Entry[], finalTrace: TraceEntry[]) {
  const before = journal.filter((e) => e.mode === 'run' && e.type === 'trace').at(-1)?.trace ?? [];
  expect(finalTrace.slice(0, before.length)).toEqual(before);
  return before.length;
}

async function storedRow(runId: string) {
  const store = new SqliteCheckpointStore(db, { readonly: true });
  try {
    return await store.load(runId);
  } finally {
    store.close();
  }
}

// each test starts two or three node processes: on a loaded machine that alone takes seconds
describe('a process killed with SIGKILL, resumed by a fresh one', { timeout: 120_000 }, () => {
  it('ends a non-idempotent attempt that was in flight as unknown_outcome, called once', async () => {
    const work = await crashWhen('inflight', (j) => calls(j).length > 0);
    expect(await storedRow('inflight')).toMatchObject({ status: 'running', state: 'attempting' });
    const result = await resumeIn(work, 'inflight');
    expect(result).toMatchObject({
      status: 'unknown_outcome',
      error: { kind: 'unknown_outcome', state: 'attempting', cause: { step: 'attempt' } },
    });
    expect(result.error.message).toMatch(/attempt was in flight .* not idempotent/);
    const journal = readJournal(work);
    expect(calls(journal)).toHaveLength(1);
    expectTraceKept(journal, result.trace);
  });

  it('re-runs an idempotent attempt that was in flight', async () => {
    const work = await crashWhen('inflight-idempotent', (j) => calls(j).length > 0);
    const result = await resumeIn(work, 'inflight-idempotent');
    expect(result).toMatchObject({ status: 'proceed', candidate: 'draft' });
    expect(calls(readJournal(work)).map((e) => e.mode)).toEqual(['run', 'resume']);
  });

  it('waits only the remainder of a retry delay', async () => {
    const work = await crashWhen('retry-delay', saved('waitingToRetry'), 850);
    const result = await resumeIn(work, 'retry-delay');
    expect(result).toMatchObject({ status: 'proceed', attempts: 2 });
    const journal = readJournal(work);
    const retryAt = journal.find((e) => e.state === 'waitingToRetry')?.retryAt ?? 0;
    const resumedAt = journal.find((e) => e.mode === 'resume' && e.type === 'start')?.at ?? 0;
    const retriedAt = calls(journal)[1]?.at ?? 0;
    expect(calls(journal).map((e) => e.mode)).toEqual(['run', 'resume']);
    expect(retriedAt).toBeGreaterThanOrEqual(retryAt - 2); // the deadline holds across processes
    // The full delay is 1500 ms and 850+ ms of it passed before the kill: restarting the wait
    // from zero would take 1500 ms after the resume.
    expect(retriedAt - resumedAt).toBeLessThan(1300);
    const kept = expectTraceKept(journal, result.trace);
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(result.trace.map((e: TraceEntry) => e.decision ?? e.state)).toContain('retry');
  });

  it('keeps a review pause waiting, then continues it with review.continue', async () => {
    const paused = (j: Entry[]) => j.some((e) => e.result?.status === 'paused');
    const work = await crashWhen('review', paused);
    const still = await resumeIn(work, 'review');
    expect(still).toMatchObject({
      status: 'paused',
      state: 'awaitingReview',
      pending: { kind: 'review', reason: 'beforeProceed', candidate: 'draft' },
    });
    expect(await storedRow('review')).toMatchObject({ status: 'paused' });
    const result = await resumeIn(work, 'review', { type: 'review.continue' });
    expect(result).toMatchObject({ status: 'proceed', candidate: 'draft', attempts: 1 });
    const journal = readJournal(work);
    expect(calls(journal)).toHaveLength(1);
    expect(expectTraceKept(journal, result.trace)).toBeGreaterThanOrEqual(3);
  });

  it('keeps a clarification question waiting across the restart and takes the answer', async () => {
    const paused = (j: Entry[]) => j.some((e) => e.result?.status === 'paused');
    const work = await crashWhen('clarify', paused);
    const wrong = await resumeIn(work, 'clarify', { type: 'review.continue' });
    expect(wrong).toMatchObject({ error: 'not_waiting' });
    expect(wrong.message).toMatch(/clarification\.answer/);
    const result = await resumeIn(work, 'clarify', {
      type: 'clarification.answer',
      answer: '2026',
    });
    expect(result).toMatchObject({ status: 'proceed', candidate: 'report for 2026' });
    expect(calls(readJournal(work))).toHaveLength(2);
    expectTraceKept(readJournal(work), result.trace);
  });
});
