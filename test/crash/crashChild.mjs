/**
 * One process of a crash test (test/crash.test.ts): runs or resumes a scenario's loop on a SQLite
 * store and journals what it sees (step calls, saved checkpoints, the trace) with synchronous
 * appends, so the journal survives the SIGKILL the test sends. The library is loaded from the
 * directory in LIB (compiled by the test). Env: LIB, SCENARIO, MODE (run | resume), DB, WORK,
 * EVENT (JSON, resume only).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, SCENARIO, MODE, DB, WORK, EVENT } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { runLoop, resumeLoop, transientFailure, clarificationRequest } =
  await load('entries/index.js');
const { SqliteCheckpointStore } = await load('entries/sqlite.js');

const journal = (entry) =>
  appendFileSync(
    join(WORK, 'journal.jsonl'),
    `${JSON.stringify({ pid: process.pid, mode: MODE, at: Date.now(), ...entry })}\n`,
  );
/** Journals an attempt call and returns its number, counted across processes. */
const countAttempt = () => {
  journal({ type: 'call', step: 'attempt' });
  const lines = readFileSync(join(WORK, 'journal.jsonl'), 'utf8').split('\n');
  return lines.filter((line) => line.includes('"type":"call"')).length;
};
const hangWhileRunning = () => (MODE === 'run' ? new Promise(() => {}) : Promise.resolve());
const valid = () => ({ valid: true });

const inflight = {
  attempt: async () => {
    countAttempt();
    await hangWhileRunning();
    return 'draft';
  },
  validate: valid,
};

const scenarios = {
  inflight,
  'inflight-idempotent': { ...inflight, idempotent: { attempt: true } },
  'retry-delay': {
    attempt: () => {
      if (countAttempt() === 1) {
        throw transientFailure('503 Service Unavailable', { effect: 'none', retryAfterMs: 1500 });
      }
      return 'draft';
    },
    validate: valid,
  },
  review: {
    review: { beforeProceed: true },
    attempt: () => {
      countAttempt();
      return 'draft';
    },
    validate: valid,
  },
  clarify: {
    attempt: ({ answers }) => {
      countAttempt();
      return answers.length === 0
        ? clarificationRequest({ question: 'Which fiscal year?', options: ['2025', '2026'] })
        : `report for ${answers[0].answer}`;
    },
    validate: valid,
  },
};

const inner = new SqliteCheckpointStore(DB);
const store = {
  save: async (record) => {
    await inner.save(record);
    const { snapshot } = JSON.parse(record.data);
    journal({
      type: 'saved',
      seq: record.seq,
      state: record.state,
      retryAt: snapshot.context.ledger.retryAt,
    });
  },
  load: (runId) => inner.load(runId),
  list: (options) => inner.list(options),
  delete: (runId) => inner.delete(runId),
};
const inspect = (event) => {
  const trace = event.type === '@xstate.snapshot' ? event.snapshot?.context?.trace : undefined;
  if (trace) journal({ type: 'trace', trace });
};

// the test waits this long after the kill, so the dead writer's claim has expired
const CLAIM_TTL_MS = 300;
const config = scenarios[SCENARIO];
const runId = SCENARIO;
// a run that hangs on purpose keeps nothing else pending: stay up until the test kills us
if (MODE === 'run') setInterval(() => {}, 60_000);
journal({ type: 'start' });
const result =
  MODE === 'run'
    ? await runLoop(config, 'task', { store, runId, inspect, claimTtlMs: CLAIM_TTL_MS })
    : await resumeLoop(config, {
        store,
        runId,
        inspect,
        ...(EVENT ? { event: JSON.parse(EVENT) } : {}),
      }).catch((error) => ({ error: error.code, message: error.message }));
journal({ type: 'result', result });
process.stdout.write(`${JSON.stringify(result)}\n`);
if (MODE !== 'run') inner.close();
