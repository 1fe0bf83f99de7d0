/**
 * One process of the operate tests (test/operate/*.test.ts). MODE:
 * - hold: starts RUNS runs (`run-0` …) whose attempts hang until the process is SIGKILLed; runs
 *   with an even number are of loop `charge` (attempt not idempotent), odd ones of loop `draft`
 *   (idempotent);
 * - recover: `recoverRuns` with CLAIM_OWNER and IN_FLIGHT, prints the report;
 * - reconcile: `reconcileRun` for each `{ runId, loop, answer }` of ANSWERS (JSON), one after
 *   another; prints their results, or `{ error: code }` for each refused.
 * Every attempt call is journaled with a synchronous append (it survives the SIGKILL). Env: LIB
 * (compiled library), STORE (sqlite | postgres), DB (the file, or the schema), PG_URL, WORK,
 * CLAIM_TTL_MS.
 */
import { envStore, journal, load } from '../support/journaledChild.mjs';

const { MODE, CLAIM_OWNER, CLAIM_TTL_MS } = process.env;
const { runLoop, recoverRuns, reconcileRun } = await load('entries/index.js');

const store = await envStore();

const attempt = ({ input }) => {
  journal({ type: 'call', runId: input.runId });
  return MODE === 'hold' ? new Promise(() => {}) : `done ${input.runId}`;
};
const validate = () => ({ valid: true });
const loops = {
  charge: { id: 'charge', attempt, validate },
  draft: { id: 'draft', attempt, validate, idempotent: { attempt: true } },
};
const claim = {
  ...(CLAIM_OWNER ? { claimOwner: CLAIM_OWNER } : {}),
  ...(CLAIM_TTL_MS ? { claimTtlMs: Number(CLAIM_TTL_MS) } : {}),
};

if (MODE === 'hold') {
  for (let i = 0; i < Number(process.env.RUNS); i++) {
    const runId = `run-${i}`;
    const config = i % 2 === 0 ? loops.charge : loops.draft;
    runLoop(config, { runId }, { store, runId, ...claim }).catch((error) =>
      journal({ type: 'error', runId, message: String(error?.message ?? error) }),
    );
  }
} else {
  const refusal = (error) => ({ error: error?.code ?? String(error) });
  let printed;
  if (MODE === 'recover') {
    const inFlight = process.env.IN_FLIGHT;
    printed = await recoverRuns(store, { loops }, { ...claim, inFlight }).catch(refusal);
  } else {
    printed = [];
    for (const { runId, loop, answer } of JSON.parse(process.env.ANSWERS)) {
      const options = { store, runId, answer, ...claim };
      printed.push(await reconcileRun(loops[loop], options).catch(refusal));
    }
  }
  await store.close?.();
  process.stdout.write(`${JSON.stringify(printed)}\n`);
}
