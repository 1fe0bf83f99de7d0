/**
 * Issue 29: deadlines are measured on the monotonic clock (SPEC §14). The wall clock (`Date`)
 * jumping back or forward mid-run neither extends nor cuts a run's budget; a restored run still
 * counts its downtime, and never gets more than its whole budget from a stored row. Simulated
 * time (fake timers fake `performance` and `Date` separately): no test sleeps.
 */

import {
  type CheckpointRecord,
  type LoopConfig,
  type LoopOutcome,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
  transientFailure,
} from 'loopchart';
import { describe, expect, it, vi } from 'vitest';
import { track } from './support/hangingStore.js';
import { editRow, RowStore } from './support/rows.js';
import { simulatedTime } from './support/simulatedTime.js';

simulatedTime();

const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));
const never = () => new Promise<never>(() => {});

describe('the wall clock jumping mid-run', () => {
  it('set back 10 minutes does not extend a deadlineMs: 2000 run', async () => {
    const config: LoopConfig<string, string> = {
      deadlineMs: 2000,
      attempt: () => later(500, 'draft'),
      validate: never, // hangs: only the deadline ends the run
    };
    const run = track(runLoop(config, 'memo'));
    await vi.advanceTimersByTimeAsync(250);
    vi.setSystemTime(Date.now() - 10 * 60_000);
    await vi.advanceTimersByTimeAsync(2000 - 250 + 1000);
    expect(run.settled).toBe(true);
    expect(run.value).toMatchObject({
      status: 'ceiling_stop',
      error: { cap: 'deadlineMs', inFlight: 'validate' },
    });
  });

  it('set forward an hour does not end a deadlineMs: 60000 run', async () => {
    const config: LoopConfig<string, string> = {
      deadlineMs: 60_000,
      attempt: () => later(1000, 'draft'),
      validate: () => later(1000, { valid: true as const }),
    };
    const run = track(runLoop(config, 'memo'));
    await vi.advanceTimersByTimeAsync(500);
    vi.setSystemTime(Date.now() + 3_600_000);
    await vi.advanceTimersByTimeAsync(5000);
    expect((run.value as LoopOutcome | undefined)?.status).toBe('proceed');
  });

  it('set back mid-run does not stretch a retry wait past the deadline', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      deadlineMs: 2000,
      retryDelayMs: 5000,
      attempt: async () => {
        calls += 1;
        await later(200, null);
        throw transientFailure('busy', { effect: 'none' });
      },
      validate: () => ({ valid: true as const }),
    };
    const run = track(runLoop(config, 'memo'));
    await vi.advanceTimersByTimeAsync(100);
    vi.setSystemTime(Date.now() - 10 * 60_000);
    await vi.advanceTimersByTimeAsync(1900 + 1000);
    expect(run.value).toMatchObject({ status: 'ceiling_stop', error: { cap: 'deadlineMs' } });
    expect(calls).toBe(1);
  });
});

describe('a restored run', () => {
  /** A working row with the attempt in flight, its writer gone (claim lapsed). */
  async function strandedRow(config: LoopConfig<string, string>): Promise<CheckpointRecord> {
    const writer = new MemoryCheckpointStore();
    const controller = new AbortController();
    const first = runLoop(config, 'memo', { store: writer, runId: 'r', signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    const row = await writer.load('r');
    controller.abort();
    await first;
    if (!row) throw new Error('no row');
    return row;
  }

  it('counts the downtime since its last checkpoint against deadlineMs', async () => {
    let calls = 0;
    const config: LoopConfig<string, string> = {
      deadlineMs: 3000,
      idempotent: { attempt: true },
      attempt: () => {
        calls += 1;
        return never();
      },
      validate: () => ({ valid: true as const }),
    };
    const row = await strandedRow(config);
    const store = new RowStore();
    await store.put(row);
    await editRow(store, 'r', (data) => {
      data.claim.expiresAt = 0;
    });
    await vi.advanceTimersByTimeAsync(2500); // down for 2.5 s of its 3 s
    const resumed = track(resumeLoop(config, { store, runId: 'r' }));
    await vi.advanceTimersByTimeAsync(500 + 1000);
    expect(resumed.value).toMatchObject({ status: 'ceiling_stop', error: { cap: 'deadlineMs' } });
    expect(calls).toBe(2); // run again (idempotent) with what was left: 0.5 s
  });

  it('never gets more than its whole budget from a row whose deadline lies far ahead', async () => {
    const config: LoopConfig<string, string> = {
      deadlineMs: 2000,
      idempotent: { attempt: true },
      attempt: never,
      validate: () => ({ valid: true as const }),
    };
    const row = await strandedRow(config);
    const store = new RowStore();
    await store.put(row);
    const year = 365 * 86_400_000;
    await editRow(store, 'r', (data) => {
      data.claim.expiresAt = 0;
      data.snapshot.context.ledger.deadlineAt += year;
      data.snapshot.children.attempt.snapshot.input.deadlineAt += year;
    });
    const resumed = track(resumeLoop(config, { store, runId: 'r' }));
    await vi.advanceTimersByTimeAsync(1999);
    expect(resumed.settled).toBe(false); // its budget from now, not 0 ms (nor a year)
    await vi.advanceTimersByTimeAsync(1001);
    expect(resumed.value).toMatchObject({ status: 'ceiling_stop', error: { cap: 'deadlineMs' } });
  });
});
