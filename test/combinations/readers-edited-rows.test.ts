/**
 * The readers of stored runs (whatIf, loopHealth) over stores where rows were edited by hand
 * (issue 29 meets issues 35 and 36): every row is read once, an edited row is skipped or taken
 * whole, never a crash, a number that is not one, or a changed row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOOP_STATUSES } from '../../src/core/vocabulary/statuses.js';
import { runLoop } from '../../src/runners/loop/runLoop.js';
import { MemoryCheckpointStore } from '../../src/stores/memory/MemoryCheckpointStore.js';
import { loopHealth } from '../../src/tools/health/loopHealth.js';
import { whatIf } from '../../src/tools/whatif/whatIf.js';
import { planned } from '../whatif/plannedLoop.js';
import { ROW_EDITS, type RowEditKind } from './support/faults.js';
import { editedRow, mayBeTaken } from './support/rowEdits.js';

const STATUSES: ReadonlySet<string> = new Set(LOOP_STATUSES);

const plan = fc.stringMatching(/^[vcf]{1,5}$/);
const row = fc.record({ plan, edit: fc.option(fc.constantFrom(...ROW_EDITS), { nil: undefined }) });
const candidate = fc.record(
  {
    maxRetries: fc.integer({ min: 0, max: 6 }),
    fallback: fc.boolean(),
    maxAttempts: fc.integer({ min: 1, max: 8 }),
  },
  { requiredKeys: [] },
);

async function editedStore(rows: readonly { plan: string; edit: RowEditKind | undefined }[]) {
  const store = new MemoryCheckpointStore();
  for (const [i, { plan }] of rows.entries()) {
    await runLoop(planned(plan), 'task', { store, runId: `invoice-${i}` });
  }
  for (const [i, { edit }] of rows.entries()) {
    if (edit === undefined) continue;
    const stored = await store.load(`invoice-${i}`);
    if (stored) await store.save({ ...editedRow(stored, edit, false), seq: stored.seq + 1 });
  }
  return store;
}

async function snapshot(store: MemoryCheckpointStore) {
  const rows = [];
  for (const summary of await store.list()) rows.push(await store.load(summary.runId));
  return JSON.stringify(rows);
}

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;

describe('readers of stored runs over rows edited by hand', () => {
  it('whatIf and loopHealth read every row once, skip or take each whole, and change none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 8 }),
        candidate,
        async (rows, config) => {
          const store = await editedStore(rows);
          const before = await snapshot(store);
          // every edit leaves a row no reader may take, but inflated bounds, which it may
          const untouched = rows.filter((r) => r.edit === undefined).length;
          const mayTake = rows.filter((r) => r.edit && mayBeTaken(r.edit, false)).length;
          const unreadable = rows.length - untouched - mayTake;

          const report = await whatIf(store, { config });
          const [summary] = report.candidates;
          expect(report.scanned).toBe(rows.length);
          expect(report.skipped + (summary?.runs ?? 0)).toBe(rows.length);
          expect(report.skipped).toBeGreaterThanOrEqual(unreadable);
          expect(summary?.runs).toBeGreaterThanOrEqual(untouched);
          expect(summary?.runs).toBeLessThanOrEqual(untouched + mayTake);
          expect((summary?.exact ?? 0) + (summary?.unknown ?? 0)).toBe(summary?.runs);
          for (const [status, count] of Object.entries({
            ...summary?.recorded,
            ...summary?.counterfactual,
          })) {
            expect(STATUSES.has(status), status).toBe(true);
            expect(isCount(count), `${status}: ${count}`).toBe(true);
          }
          for (const value of Object.values(summary?.cost ?? {})) {
            expect(Number.isFinite(value), `cost ${value}`).toBe(true);
          }

          const health = await loopHealth(store);
          const taken = health.loops.reduce((sum, loop) => sum + loop.runs, 0);
          expect(health.scanned).toBe(rows.length);
          expect(health.skipped.unreadable + health.skipped.pipeline + taken).toBe(rows.length);
          expect(health.skipped.unreadable).toBeGreaterThanOrEqual(unreadable);
          expect(taken).toBeGreaterThanOrEqual(untouched);
          expect(taken).toBeLessThanOrEqual(untouched + mayTake);
          expect(await snapshot(store)).toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  });
});
