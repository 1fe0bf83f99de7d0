/**
 * `loopchart runs recover | reconcile | continue` in-process on a SQLite file, with the loops of a
 * `--loops` module: a run left with its attempt in flight is parked, settled, and a capped run
 * continued with a top-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckpointRecord, MemoryCheckpointStore, runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, expect, it } from 'vitest';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { runCli } from '../../src/tools/cli/runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'runs-operate-'));
const db = join(dir, 'runs.db');
const module = join(dir, 'loops.mjs');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the module the CLI imports: a charge loop (attempt not idempotent) and a loop that needs 3 attempts
writeFileSync(
  module,
  `export const loops = [
  { id: 'charge', attempt: ({ input }) => 'charged ' + input, validate: () => ({ valid: true }) },
  { id: 'draft', maxRetries: 1, attempt: ({ attempt }) => 'draft ' + attempt,
    validate: (c) => c === 'draft 3' ? { valid: true } : { valid: false, error: { severity: 'correctable', message: 'longer' } } },
];
`,
);

async function cli(...argv: string[]) {
  const capture = captureIo(false);
  const code = await runCli([...argv, '--db', db, '--loops', module], capture.io);
  return { code, out: capture.stdout().trim(), err: capture.stderr().trim() };
}

async function show(runId: string) {
  const capture = captureIo(false);
  await runCli(['runs', 'show', runId, '--db', db], capture.io);
  return capture.stdout();
}

/** A `charge` run left as a process that died in its attempt leaves it, under owner `pod-a`. */
async function strandedRun(store: SqliteCheckpointStore) {
  const live = new MemoryCheckpointStore();
  const stop = new AbortController();
  let called = false;
  const hanging = {
    id: 'charge',
    attempt: () => {
      called = true;
      return new Promise<string>(() => {});
    },
    validate: () => ({ valid: true }),
  };
  const run = runLoop(hanging, 'order 7', {
    store: live,
    runId: 'r1',
    claimOwner: 'pod-a',
    signal: stop.signal,
  });
  while (!called) await new Promise((r) => setTimeout(r, 1));
  const row = (await live.load('r1')) as CheckpointRecord;
  stop.abort();
  await run;
  await store.save({ ...row, seq: 1 });
}

it('recovers with --park, reconciles with --happened, continues with a top-up', async () => {
  const store = new SqliteCheckpointStore(db);
  await strandedRun(store);
  const capped = {
    id: 'draft',
    maxRetries: 1,
    attempt: ({ attempt }: { attempt: number }) => `draft ${attempt}`,
    validate: () => ({
      valid: false as const,
      error: { severity: 'correctable' as const, message: 'longer' },
    }),
  };
  expect(await runLoop(capped, 'x', { store, runId: 'r2' })).toMatchObject({
    status: 'iteration_exhausted',
  });
  const r2 = await store.load('r2');
  store.close();

  const other = await cli('runs', 'recover', '--claim-owner', 'pod-b', '--park');
  expect(other.out).toMatch(/still claimed 1/);
  const recovered = await cli('runs', 'recover', '--claim-owner', 'pod-a', '--park', '--json');
  expect(JSON.parse(recovered.out).parked).toEqual([
    { runId: 'r1', machineId: 'charge', step: 'attempt' },
  ]);

  expect(await show('r1')).toMatch(/parked: its attempt was in flight .* runs reconcile r1/);
  expect(await cli('runs', 'reconcile', 'r1')).toMatchObject({ code: 2 });
  const settled = await cli('runs', 'reconcile', 'r1', '--happened', '"receipt 812"', '--json');
  expect(JSON.parse(settled.out)).toMatchObject({ status: 'proceed', candidate: 'receipt 812' });

  const continued = await cli('runs', 'continue', 'r2', '--retries', '1', '--new-run-id', 'r3');
  expect(continued).toMatchObject({ code: 0, out: 'r3: proceed' });
  expect(await show('r3')).toMatch(/continued from run r2/);
  const after = new SqliteCheckpointStore(db, { readonly: true });
  expect((await after.load('r2'))?.data).toBe(r2?.data);
  expect((await after.load('r3'))?.status).toBe('done');
  after.close();
  const refused = await cli('runs', 'continue', 'r1');
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(/not_waiting/);
});
