/**
 * Three DBOS processes (test/dbos/dbosChild.mjs) share 200 loop runs through the DBOS queue
 * `loops` on a database of their own on the real Postgres server; one is SIGKILLed mid-run and
 * another recovers its runs with `recoverExecutor`. Every run must end exactly once with a SPEC §3
 * status, no non-idempotent attempt's effect may be recorded twice, and the non-idempotent
 * attempts in flight at the kill must end their runs `unknown_outcome`.
 */
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { LOOP_STATUSES, type LoopOutcome } from 'loopchart';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type DbosProcess, readJournals } from './dbos/dbosHarness.js';
import { dbosTestbed } from './dbos/dbosTestbed.js';
import { postgresReachable } from './support/postgresServer.js';

const reachable = await postgresReachable();
const bed = dbosTestbed('procs', reachable);
const RUNS = 200;
const EXECUTORS = ['w1', 'w2', 'w3'];
let client: DBOSClient | undefined;
afterAll(() => client?.destroy());

describe.runIf(reachable)('200 loop runs on three DBOS processes, one SIGKILLed', () => {
  it('ends every run once, records no effect twice, and ends in-flight side effects unknown_outcome', async () => {
    const start = (executor: string) => bed.start(executor, { STEP_MS: '25', CONCURRENCY: '6' });
    const started = await Promise.all(EXECUTORS.map(start));
    const [victim, rescuer] = started as [DbosProcess, DbosProcess, DbosProcess];
    const dbos = await DBOSClient.create({ systemDatabaseUrl: bed.url });
    client = dbos;
    const runs = Array.from({ length: RUNS }, (_, n) => ({
      loop: n % 4 === 3 ? 'pure' : 'side',
      runId: `run-${n}`,
      input: { name: `n${n}`, refines: n % 3 },
    }));
    for (const run of runs) {
      await dbos.enqueue(
        { queueName: 'loops', workflowName: run.loop, workflowID: run.runId },
        run.input,
      );
    }

    // kill w1 while it has attempts in flight, a non-idempotent one among them: it is frozen while
    // its journal is read, so what is open then is exactly what is in flight at the kill
    await vi.waitFor(
      async () => {
        await victim.freeze();
        const mine = readJournals(bed.base, ['w1']);
        const done = new Set(
          mine.filter((e) => e.type === 'done').map((e) => `${e.runId}#${e.attempt}`),
        );
        const open = mine.filter(
          (e) => e.type === 'effect' && !done.has(`${e.runId}#${e.attempt}`),
        );
        // a side attempt past the first: its recovery replays finished attempts before the open one
        if (open.length >= 2 && open.some((e) => e.loop === 'side' && e.attempt >= 2)) return;
        victim.thaw();
        throw new Error(`w1 never had a side attempt past the first in flight: ${victim.errors()}`);
      },
      { timeout: 120_000, interval: 5 },
    );
    await victim.kill();
    const atKill = readJournals(bed.base, ['w1']);
    const recovered = await rescuer.command<{ ids: string[] }>('recover', { executor: 'w1' });
    expect(recovered.ids.length).toBeGreaterThan(0);

    const outcomes = new Map<string, LoopOutcome>();
    for (const run of runs) {
      outcomes.set(
        run.runId,
        (await dbos.retrieveWorkflow<LoopOutcome>(run.runId).getResult()) as LoopOutcome,
      );
    }
    const statuses = await dbos.listWorkflows({ workflowIDs: runs.map((r) => r.runId) });
    expect(statuses.every((s) => s.status === 'SUCCESS')).toBe(true);
    expect(statuses).toHaveLength(RUNS);

    const journal = readJournals(bed.base, EXECUTORS);
    const effects = new Map<string, number>();
    for (const e of journal.filter((j) => j.type === 'effect')) {
      const key = `${e.runId}#${e.attempt}`;
      effects.set(key, (effects.get(key) ?? 0) + 1);
    }
    // attempts w1 started and never finished: in flight at the kill
    const doneAtKill = new Set(
      atKill.filter((e) => e.type === 'done').map((e) => `${e.runId}#${e.attempt}`),
    );
    const inFlight = atKill.filter(
      (e) => e.type === 'effect' && !doneAtKill.has(`${e.runId}#${e.attempt}`),
    );
    expect(inFlight.some((e) => e.loop === 'side' && e.attempt >= 2)).toBe(true);

    let unknown = 0;
    for (const run of runs) {
      const outcome = outcomes.get(run.runId) as LoopOutcome;
      expect(LOOP_STATUSES).toContain(outcome.status);
      const mine = [...effects].filter(([key]) => key.startsWith(`${run.runId}#`));
      const hung = inFlight.find((e) => e.runId === run.runId);
      if (run.loop === 'side') {
        // a side effect is never recorded twice, and the loop counts each attempt it made; a run
        // killed after its `attempt.started` marker but before the attempt acted counts one more
        for (const [, count] of mine) expect(count).toBe(1);
        const counted =
          outcome.status === 'unknown_outcome'
            ? [outcome.attempts - 1, outcome.attempts]
            : [outcome.attempts];
        expect(counted, JSON.stringify(outcome.trace)).toContain(mine.length);
      }
      if (hung && run.loop === 'side') {
        expect(outcome.status).toBe('unknown_outcome');
        if (outcome.status === 'unknown_outcome') {
          expect(outcome.error.cause?.step).toBe('attempt');
          expect(outcome.error.message).toMatch(/in flight/);
        }
      }
      if (outcome.status === 'unknown_outcome') {
        unknown++;
        // only a run w1 held can have had a step in flight at the kill; the attempt it names is
        // w1's (or never acted), so a replay of finished attempts was not misread
        expect(run.loop).toBe('side');
        expect(recovered.ids).toContain(run.runId);
        const last = journal.find(
          (e) => e.type === 'effect' && e.runId === run.runId && e.attempt === outcome.attempts,
        );
        if (last) expect(last.executor).toBe('w1');
      } else {
        // everything else ends as its validator says: after `refines` refine cycles
        expect(outcome.status).toBe('proceed');
        expect(outcome.iterations).toBe(run.input.refines);
      }
      if (hung && run.loop === 'pure') {
        // an idempotent attempt in flight ran again, once
        expect(effects.get(`${run.runId}#${hung.attempt}`)).toBe(2);
      }
    }
    expect(unknown).toBeGreaterThan(0);
  }, 300_000);
});
