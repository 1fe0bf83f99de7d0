/**
 * Path tests of a user's own loop, not only loopchart's chart:
 * - `samples`: every candidate, fallback answer, reviewer edit and thrown error a path feeds is a
 *   value the user gave, typed as the loop's `InvoiceText` / `InvoiceTotal` (none is invented);
 * - `realSteps`: the loop's own validate, refine, fallback and classifyFailure run on them, and
 *   a replay fails naming the step and the sample when one disagrees with the path;
 * - `onOutcome`: the application's handler runs on every way the loop can end;
 * - `transitionCoverage` lists the paths left out for want of a sample.
 * In a vitest suite it is the README's "Test every path" block: see test/path-samples-readme.test.ts.
 */
import { getLoopPaths, transitionCoverage } from 'loopchart/testing';
import { handleInvoice, invoiceLoop, invoiceSteps } from './invoiceLoop.js';
import { invoiceSamples } from './invoiceSamples.js';

const handled = new Map<string, number>();
const paths = getLoopPaths(invoiceLoop, {
  input: { text: 'Paper 12.50 Ink 7.25 Total 19.75' },
  samples: invoiceSamples,
  realSteps: invoiceSteps,
  onOutcome: (outcome) => {
    const action = handleInvoice(outcome).split(' ')[0] ?? '';
    handled.set(action, (handled.get(action) ?? 0) + 1);
  },
});
const replayed = paths.filter((path) => path.skipped === undefined);
for (const path of replayed) await path.replay();
const coverage = transitionCoverage(invoiceLoop, paths);

console.log(`${replayed.length} paths replayed with the loop's own steps on its own samples`);
console.log(`${coverage.covered}/${coverage.total} transitions covered`);
console.log(`handled: ${[...handled].map(([action, count]) => `${action} ×${count}`).join(', ')}`);
const reasons = new Set(coverage.skipped.map((skip) => skip.reason));
console.log(`${coverage.skipped.length} paths skipped: ${[...reasons].join('; ') || 'none'}`);
