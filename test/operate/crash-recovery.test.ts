/**
 * Recovering runs after their process died (SPEC §16, issue 34), across real processes on SQLite
 * and Postgres: a process holding 50 runs, every attempt in flight, is SIGKILLed. Half the runs
 * are of loop `charge` (attempt not idempotent), half of `draft` (idempotent). A recoverer with
 * the dead writer's `claimOwner` takes them all over at once; other owners wait out the claim,
 * then resume each run exactly once between them; a parked run is settled from yet another
 * process by what really happened.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from '../support/postgresServer.js';
import {
  callsIn,
  holdAndKill,
  reconcileIn,
  recoverIn,
  rowsOf,
  type Target,
  until,
} from './operateProcess.js';

const RUNS = 50;
const reachable = await postgresReachable();
const schemas: string[] = [];
let base: string;
let lib: string;

beforeAll(() => {
  ({ base, lib } = compileLibrary('operate', [
    'entries/index.ts',
    'entries/sqlite.ts',
    'entries/postgres.ts',
  ]));
}, 90_000);

afterAll(async () => {
  if (base) removeLibrary(base);
  for (const schema of schemas) await dropSchema(schema);
}, 60_000);

async function targetOf(kind: Target['kind'], label: string): Promise<Target> {
  const work = mkdtempSync(join(base, `${kind}-${label}-`));
  if (kind === 'sqlite') return { lib, kind, db: join(work, 'runs.db'), work };
  const schema = schemaName(`operate_${label}`);
  schemas.push(schema);
  const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
  await store.setup();
  await store.close();
  return { lib, kind, db: schema, work };
}

const ids = (n: number, parity: 0 | 1) =>
  Array.from({ length: n }, (_, i) => `run-${i}`).filter((_, i) => i % 2 === parity);
const sorted = (values: Iterable<string>) => [...values].sort();

describe.each([
  ['sqlite', true],
  ['postgres', reachable],
] as const)('runs of a SIGKILLed process on %s', (kind, available) => {
  it.skipIf(!available)(
    'another owner finds all 50 still claimed; the same claimOwner recovers them all at once, each once',
    async () => {
      const target = await targetOf(kind, 'same');
      // claims far longer than any run of this test on a loaded machine: never waited out
      await holdAndKill(target, RUNS, 'pod-a', 600_000);
      const before = await rowsOf(target);
      expect([...before.values()].every((row) => row.status === 'running')).toBe(true);

      const other = await recoverIn(target, 'pod-b', 'end');
      expect(other.stillClaimed).toHaveLength(RUNS);
      expect(other.stillClaimed.every((entry) => entry.owner === 'pod-a')).toBe(true);
      expect(other.resumed).toEqual([]);
      const untouched = await rowsOf(target);
      for (const [runId, row] of before) expect(untouched.get(runId)?.data).toBe(row.data);

      const startedAt = Date.now();
      const own = await recoverIn(target, 'pod-a', 'end');
      // at once: the 600 s claims were not waited out (a process and 50 resumes: seconds, more
      // beside a CPU hog)
      expect(Date.now() - startedAt).toBeLessThan(120_000);
      expect(own.stillClaimed).toEqual([]);
      expect(own.refused).toEqual([]);
      expect(sorted(own.resumed.map((r) => r.runId))).toEqual(sorted(before.keys()));
      for (const { runId, status } of own.resumed) {
        expect(status).toBe(ids(RUNS, 0).includes(runId) ? 'unknown_outcome' : 'proceed');
      }
      const calls = callsIn(target, 'recover');
      expect(sorted(calls.keys())).toEqual(sorted(ids(RUNS, 1))); // only the idempotent re-ran
      expect([...calls.values()].every((n) => n === 1)).toBe(true);

      const after = await rowsOf(target);
      expect([...after.values()].every((row) => row.status === 'done')).toBe(true);
    },
    300_000,
  );

  it.skipIf(!available)(
    'after the claims expire, two other owners at once resume or park each run exactly once between them; another process settles the parked ones',
    async () => {
      const target = await targetOf(kind, 'expiry');
      await holdAndKill(target, RUNS, 'pod-a', 1000);
      await until(async () => {
        const rows = await rowsOf(target);
        const expiries = [...rows.values()].map((row) => JSON.parse(row.data).claim.expiresAt);
        return Math.max(...expiries) < Date.now();
      }, 'every claim to expire');

      const [b, c] = await Promise.all([
        recoverIn(target, 'pod-b', 'park'),
        recoverIn(target, 'pod-c', 'park'),
      ]);
      const resumed = [...b.resumed, ...c.resumed].map((r) => r.runId);
      const parked = [...b.parked, ...c.parked].map((r) => r.runId);
      expect(sorted(resumed)).toEqual(sorted(ids(RUNS, 1)));
      expect(sorted(parked)).toEqual(sorted(ids(RUNS, 0)));
      expect([...b.refused, ...c.refused]).toEqual([]);
      // whatever one recoverer found taken, the other had resumed or parked
      for (const [mine, theirs] of [
        [b, c],
        [c, b],
      ] as const) {
        const handled = new Set([...theirs.resumed, ...theirs.parked].map((r) => r.runId));
        expect(mine.stillClaimed.every((entry) => handled.has(entry.runId))).toBe(true);
      }
      const calls = callsIn(target, 'recover');
      expect(sorted(calls.keys())).toEqual(sorted(ids(RUNS, 1)));
      expect([...calls.values()].every((n) => n === 1)).toBe(true);
      const rows = await rowsOf(target);
      for (const runId of ids(RUNS, 0)) {
        const row = rows.get(runId);
        expect(row?.status).toBe('paused');
        expect(JSON.parse(row?.data ?? '{}').parked).toMatchObject({ step: 'attempt' });
      }

      // the parked runs are settled from yet another process, by what really happened
      const charge = (runId: string, answer: unknown) => ({
        runId,
        loop: 'charge' as const,
        answer,
      });
      const [happened, notHappened, twice, bad, gaveUp] = await reconcileIn(target, [
        charge('run-0', { type: 'outcome.happened', result: 'receipt #812' }),
        charge('run-2', { type: 'outcome.did_not_happen' }),
        charge('run-2', { type: 'outcome.did_not_happen' }),
        charge('run-4', { type: 'outcome.happened' }), // no result: refused
        charge('run-4', { type: 'outcome.give_up' }),
      ]);
      expect(happened).toMatchObject({ status: 'proceed', candidate: 'receipt #812', attempts: 1 });
      expect(notHappened).toMatchObject({ status: 'proceed', candidate: 'done run-2' });
      expect(twice).toEqual({ error: 'not_waiting' });
      expect(bad).toEqual({ error: 'invalid_answer' });
      expect(gaveUp).toMatchObject({
        status: 'unknown_outcome',
        error: { cause: { step: 'attempt' } },
      });
      // only the step answered "it did not happen" ran, once
      expect(Object.fromEntries(callsIn(target, 'reconcile'))).toEqual({ 'run-2': 1 });
    },
    180_000,
  );
});
