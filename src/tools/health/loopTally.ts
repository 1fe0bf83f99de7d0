import { FAILURE_KINDS, type FailureKind } from '../../core/vocabulary/failures.js';
import { LOOP_STATUSES, type LoopStatus } from '../../core/vocabulary/statuses.js';
import type { LoopHealth } from './HealthReport.js';
import type { HealthThresholds } from './healthThresholds.js';
import { redFlagsOf } from './redFlags.js';
import type { StoredRunFacts } from './storedRunFacts.js';
import { emptyCounts, verdictSeries } from './verdictSeries.js';

/** Distinct stall fingerprints counted one by one; stalls on others count as `otherRuns`. */
const MAX_FINGERPRINTS = 1000;
const LISTED_FINGERPRINTS = 10;

/**
 * The running totals of one loop: `add` one run at a time (memory stays bounded by the loop's
 * caps, not by its run count), `finish` for its `LoopHealth`.
 */
export function loopTally(loop: string) {
  const outcomes = Object.fromEntries(LOOP_STATUSES.map((s) => [s, 0])) as Record<
    LoopStatus,
    number
  >;
  const failures = Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<
    FailureKind,
    number
  >;
  const verdicts = emptyCounts();
  const series = verdictSeries();
  const histogram: number[] = [];
  const caps = new Map<number, number>();
  const stalled = new Map<string, number[]>();
  const unfinished = { running: 0, paused: 0 };
  let runs = 0;
  let atCap = 0;
  let iterationSum = 0;
  let untraced = 0;
  let otherStalls = 0;
  let cost = 0;
  let maxCost = 0;
  const intermittent = { runs: 0, successes: 0 };

  return {
    add(run: StoredRunFacts) {
      runs += 1;
      for (const kind of run.failures) failures[kind] += 1;
      if (run.intermittent > 0) {
        intermittent.runs += 1;
        intermittent.successes += run.intermittent;
      }
      if (!run.traced) untraced += 1;
      for (const { verdict, at } of run.verdicts) {
        verdicts[verdict] += 1;
        series.add(verdict, at);
      }
      if (run.status === 'running' || run.status === 'paused') {
        unfinished[run.status] += 1;
        return;
      }
      outcomes[run.status] += 1;
      histogram[run.iterations] = (histogram[run.iterations] ?? 0) + 1;
      iterationSum += run.iterations;
      caps.set(run.maxRetries, (caps.get(run.maxRetries) ?? 0) + 1);
      if (run.iterations >= run.maxRetries) atCap += 1;
      cost += run.cost;
      maxCost = Math.max(maxCost, run.cost);
      if (run.stall) countStall(run.stall);
    },
    finish(thresholds: HealthThresholds): LoopHealth {
      const finished = runs - unfinished.running - unfinished.paused;
      const capList = [...caps]
        .map(([maxRetries, n]) => ({ maxRetries, runs: n }))
        .sort((a, b) => b.runs - a.runs || a.maxRetries - b.maxRetries);
      const maxRetries = capList[0]?.maxRetries ?? 0;
      const filled = Array.from(
        { length: Math.max(histogram.length, maxRetries + 1) },
        (_, i) => histogram[i] ?? 0,
      );
      const invalid = runsOf(verdicts) - verdicts.valid;
      const share = (n: number) => (invalid === 0 ? 0 : n / invalid);
      const fingerprints = [...stalled]
        .map(([fingerprint, atIteration]) => ({
          fingerprint,
          runs: atIteration.reduce((a, b) => a + b, 0),
          atIteration: Array.from({ length: atIteration.length }, (_, i) => atIteration[i] ?? 0),
        }))
        .sort((a, b) => b.runs - a.runs || (a.fingerprint < b.fingerprint ? -1 : 1));
      const listed = fingerprints.slice(0, LISTED_FINGERPRINTS);
      const stallRuns = fingerprints.reduce((sum, f) => sum + f.runs, 0) + otherStalls;
      const health = {
        loop,
        runs,
        finished,
        unfinished,
        outcomes,
        iterations: {
          histogram: filled,
          maxRetries,
          caps: capList,
          atCap,
          exhausted: outcomes.fallback + outcomes.iteration_exhausted,
          mean: finished === 0 ? 0 : iterationSum / finished,
        },
        verdicts: {
          counts: verdicts,
          invalid,
          shares: {
            correctable: share(verdicts.correctable),
            fundamental: share(verdicts.fundamental),
            no_diagnostic: share(verdicts.no_diagnostic),
            malformed: share(verdicts.malformed),
          },
          series: series.finish(),
          untracedRuns: untraced,
        },
        stalls: {
          runs: stallRuns,
          fingerprints: listed,
          otherRuns: stallRuns - listed.reduce((sum, f) => sum + f.runs, 0),
        },
        fallbackRate: finished === 0 ? 0 : outcomes.fallback / finished,
        cost: { total: cost, mean: finished === 0 ? 0 : cost / finished, max: maxCost },
        failures,
        intermittent,
      };
      return { ...health, flags: redFlagsOf(health, thresholds) };
    },
  };

  function countStall({ fingerprint, iteration }: { fingerprint: string; iteration: number }) {
    let atIteration = stalled.get(fingerprint);
    if (!atIteration) {
      if (stalled.size >= MAX_FINGERPRINTS) {
        otherStalls += 1;
        return;
      }
      atIteration = [];
      stalled.set(fingerprint, atIteration);
    }
    atIteration[iteration] = (atIteration[iteration] ?? 0) + 1;
  }
}

function runsOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
