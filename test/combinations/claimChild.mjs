/**
 * One process of the claim tests (test/combinations/claims.test.ts): runs or resumes one loop on
 * a SQLite file or a Postgres schema, journaling every attempt call with a synchronous append so
 * the journal survives a SIGKILL. Env: LIB (compiled library), STORE (sqlite | postgres), DB (the
 * file, or the schema), PG_URL, WORK (journal folder), RUN_ID, MODE (run | resume), STEP_MS (how
 * long a resumed attempt takes), CLAIM_TTL_MS. Prints the result (or the error's code) as JSON.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, STORE, DB, PG_URL, WORK, RUN_ID, MODE, STEP_MS, CLAIM_TTL_MS } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { runLoop, resumeLoop } = await load('index.js');

const journal = (entry) =>
  appendFileSync(
    join(WORK, 'journal.jsonl'),
    `${JSON.stringify({ pid: process.pid, mode: MODE, at: Date.now(), ...entry })}\n`,
  );

let store;
if (STORE === 'sqlite') {
  const { SqliteCheckpointStore } = await load('sqlite/index.js');
  store = new SqliteCheckpointStore(DB);
} else {
  const { PostgresCheckpointStore } = await load('postgres/index.js');
  store = new PostgresCheckpointStore({ connectionString: PG_URL, schema: DB });
}

const config = {
  idempotent: { attempt: true },
  attempt: async ({ signal }) => {
    journal({ type: 'call' });
    // the first writer hangs in its step until it is killed; a resumer's step takes STEP_MS
    if (MODE === 'run') return new Promise(() => {});
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, Number(STEP_MS));
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return 'draft';
  },
  validate: () => ({ valid: true }),
};

const options = { store, runId: RUN_ID, claimTtlMs: Number(CLAIM_TTL_MS) };
journal({ type: 'start' });
const result = await (MODE === 'run'
  ? runLoop(config, 'task', options)
  : resumeLoop(config, options)
).then(
  (outcome) => ({ status: outcome.status }),
  (error) => ({ error: error.code ?? String(error), message: error.message }),
);
journal({ type: 'result', result });
process.stdout.write(`${JSON.stringify(result)}\n`);
await store.close?.();
