/**
 * Model-based testing: a user's own loop covered on every path.
 * - `getLoopPaths` enumerates every transition path of the loop (xstate/graph, realistic step
 *   outcomes: valid, correctable, fundamental, malformed, each failure kind, empty, questions);
 * - `path.replay()` runs the real machine along it with scripted steps and checks the outcome,
 *   the trace and the bounds (attempts ≤ maxAttempts, refines ≤ maxRetries, one fallback at most);
 * - `transitionCoverage` proves every transition and every final state was taken.
 * In a vitest suite it is one line per path: see test/paths-example.test.ts and the README.
 */
import { getLoopPaths, transitionCoverage } from 'loopchart/testing';
import { invoiceTotalLoop } from './invoiceTotalLoop.js';

const paths = getLoopPaths(invoiceTotalLoop, {
  input: { text: 'Paper 12.50 Ink 7.25 Total 19.75' },
});
for (const path of paths) await path.replay();
const coverage = transitionCoverage(invoiceTotalLoop, paths);

console.log(`${paths.length} paths replayed, every one within its bounds`);
console.log(`${coverage.covered}/${coverage.total} transitions covered`);
console.log(`final states never reached: ${coverage.unreachedFinals.join(', ') || 'none'}`);
for (const path of paths.slice(0, 3)) console.log(`  e.g. ${path.description}`);
if (coverage.uncovered.length > 0) {
  console.log(`uncovered: ${coverage.uncovered.map((edge) => edge.id).join(', ')}`);
  process.exitCode = 1;
}
