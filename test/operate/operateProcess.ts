/**
 * Child processes of the operate tests (operateChild.mjs) on a SQLite file or a Postgres schema:
 * a holder SIGKILLed with its runs' attempts in flight, recoverers, reconcilers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckpointRecord, CheckpointStore, RecoveryReport } from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { PG_URL } from '../support/postgresServer.js';
import { readJournal } from '../support/readJournal.js';

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'operateChild.mjs');

/** Where a test's runs live: a SQLite file or a Postgres schema, and its journal folder. */
export interface Target {
  lib: string;
  kind: 'sqlite' | 'postgres';
  /** The SQLite file, or the schema. */
  db: string;
  work: string;
}

export interface Call {
  type: 'call' | 'error';
  mode: 'hold' | 'recover' | 'reconcile';
  runId: string;
  pid: number;
}

/** The attempt calls journaled in `mode`, by run id. */
export function callsIn(target: Target, mode: Call['mode']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of readJournal<Call>(target.work)) {
    if (entry.type === 'call' && entry.mode === mode) {
      counts.set(entry.runId, (counts.get(entry.runId) ?? 0) + 1);
    }
  }
  return counts;
}

function child(target: Target, env: Record<string, string>) {
  const proc = spawn(process.execPath, [childScript], {
    env: {
      ...process.env,
      LIB: target.lib,
      STORE: target.kind,
      DB: target.db,
      PG_URL,
      WORK: target.work,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (chunk) => (out += chunk));
  proc.stderr?.on('data', (chunk) => (err += chunk));
  const printed = once(proc, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`child exited ${code}: ${err}`);
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as unknown;
  });
  printed.catch(() => {});
  return { proc, printed, errors: () => err };
}

/**
 * Starts `runs` runs in a child under `claimOwner` and SIGKILLs it once every attempt is in
 * flight (journaled); returns when it is dead.
 */
export async function holdAndKill(target: Target, runs: number, claimOwner: string, ttlMs: number) {
  const holder = child(target, {
    MODE: 'hold',
    RUNS: String(runs),
    CLAIM_OWNER: claimOwner,
    CLAIM_TTL_MS: String(ttlMs),
  });
  await until(() => callsIn(target, 'hold').size === runs, 'every attempt in flight', holder.proc);
  const exited = once(holder.proc, 'exit');
  holder.proc.kill('SIGKILL');
  const [, signal] = await exited;
  if (signal !== 'SIGKILL') throw new Error(`holder ended by ${signal}: ${holder.errors()}`);
  const failed = readJournal<Call>(target.work).filter((entry) => entry.type === 'error');
  if (failed.length) throw new Error(`holder runs failed: ${JSON.stringify(failed)}`);
}

/** `recoverRuns` in a fresh process. */
export function recoverIn(target: Target, claimOwner: string, inFlight: 'end' | 'park') {
  return child(target, { MODE: 'recover', CLAIM_OWNER: claimOwner, IN_FLIGHT: inFlight })
    .printed as Promise<RecoveryReport>;
}

/** A `reconcileRun` call: which run of which loop, and the answer. */
export interface Settle {
  runId: string;
  loop: 'charge' | 'draft';
  answer: unknown;
}

/** `reconcileRun` for each of `settles` in turn, in a fresh process: results, or `{ error: code }`. */
export function reconcileIn(target: Target, settles: Settle[]) {
  return child(target, {
    MODE: 'reconcile',
    ANSWERS: JSON.stringify(settles),
    CLAIM_OWNER: 'operator',
  }).printed as Promise<Record<string, unknown>[]>;
}

/** Opens the target's store in this process. */
export async function openStore(target: Target): Promise<CheckpointStore> {
  if (target.kind === 'sqlite') return new SqliteCheckpointStore(target.db);
  const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema: target.db });
  await store.setup();
  return store;
}

/** Every stored row, by run id. */
export async function rowsOf(target: Target): Promise<Map<string, CheckpointRecord>> {
  const store = await openStore(target);
  try {
    const rows = new Map<string, CheckpointRecord>();
    for (const { runId } of await store.list()) {
      const row = await store.load(runId);
      if (row) rows.set(runId, row);
    }
    return rows;
  } finally {
    await store.close?.();
  }
}

/** Waits on a condition, polling; fails after 60 s or when `proc` exits first. */
export async function until(
  ready: () => boolean | Promise<boolean>,
  what: string,
  proc?: ChildProcess,
) {
  const deadline = Date.now() + 60_000;
  while (!(await ready())) {
    if (proc && proc.exitCode !== null) throw new Error(`child exited before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
