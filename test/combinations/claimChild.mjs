/**
 * One process of the claim tests (test/combinations/claims.test.ts): runs or resumes one loop on
 * a SQLite file or a Postgres schema, journaling every attempt call with a synchronous append so
 * the journal survives a SIGKILL. Env: LIB (compiled library), STORE (sqlite | postgres), DB (the
 * file, or the schema), PG_URL, WORK (journal folder), RUN_ID, MODE (run | resume), STEP_MS (how
 * long a resumed attempt takes), CLAIM_TTL_MS, GATE (when set, waits for a line on stdin after
 * the `start` entry, so its start-up is not timed). Prints the result (or the error's code) as JSON.
 */
import { once } from 'node:events';
import { envStore, journal, load } from '../support/journaledChild.mjs';

const { RUN_ID, MODE, STEP_MS, CLAIM_TTL_MS } = process.env;
const { runLoop, resumeLoop } = await load('entries/index.js');

const store = await envStore();

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
if (process.env.GATE) await once(process.stdin.setEncoding('utf8'), 'data');
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
