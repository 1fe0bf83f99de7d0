/**
 * What-if gate: would a config change have cost us successes? Answered from recorded runs.
 * - a week of invoice-extraction runs is recorded to SQLite (the store production writes);
 * - `whatIf` re-decides every run under a candidate config without calling any step: exact where
 *   the record holds every step the candidate needs, "unknown beyond step N" where it does not;
 * - ci.sh beside this file is the CI step for a pull request that changes the loop's config:
 *   `loopchart what-if --fail-if "proceed < 0.95 * recorded"` exits 1 when the change loses successes.
 * Usage: npm run example -- what-if-gate [runs.db]   (or WHAT_IF_DB=runs.db)
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type LoopConfig, runLoop, type ValidationResult, withCost } from 'loopchart';
import { whatIf } from 'loopchart/health';
import { SqliteCheckpointStore } from 'loopchart/sqlite';

const db = process.env.WHAT_IF_DB ?? process.argv[2] ?? '.loopchart/what-if-gate.db';

// The validator's answer to each attempt of one run: v valid, c correctable (the total is missing).
const WEEK = ['v', 'v', 'cv', 'v', 'ccv', 'cv', 'v', 'cccv', 'v', 'cv', 'v', 'v', 'cv', 'v', 'v'];

const invoiceLoop = (plan: string): LoopConfig<string, string> => {
  let validations = 0;
  return {
    id: 'invoice',
    maxRetries: 3,
    attempt: ({ input, attempt }) => withCost(`${input}: draft ${attempt}`, 120),
    validate: () => {
      const letter = plan[validations++] ?? 'v';
      const verdict: ValidationResult =
        letter === 'v'
          ? { valid: true }
          : { valid: false, error: { severity: 'correctable', message: 'the total is missing' } };
      return withCost(verdict, 30);
    },
  };
};

mkdirSync(dirname(db), { recursive: true });
const store = new SqliteCheckpointStore(db);
try {
  for (const [i, plan] of WEEK.entries()) {
    await runLoop(invoiceLoop(plan), `INV-${1000 + i}`, { store, runId: `invoice-${i}` });
  }
  for (const maxRetries of [1, 2]) {
    const [summary] = (await whatIf(store, { loop: 'invoice', config: { maxRetries } })).candidates;
    if (!summary) continue;
    console.log(
      `maxRetries ${maxRetries}: ${summary.counterfactual.proceed ?? 0}/${summary.recorded.proceed ?? 0} proceed, ` +
        `${summary.successes.lost} lost, cost ${summary.cost.recorded} → ${summary.cost.counterfactual} (${summary.exact} exact, ${summary.unknown} unknown)`,
    );
  }
} finally {
  store.close();
}
console.log(`recorded ${WEEK.length} runs in ${db}; the CI gate: sh examples/what-if-gate/ci.sh`);
