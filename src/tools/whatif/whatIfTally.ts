import { isOkStatus, type LoopStatus } from '../../core/vocabulary/statuses.js';
import type { WhatIfChange } from './candidateSettings.js';
import type { Redecision } from './Redecision.js';
import type { RecordedRun } from './recordedRun.js';
import type { RunWhatIf, StatusMix, WhatIfSummary } from './WhatIfReport.js';

const MAX_EXAMPLES = 20;
const MAX_REASONS = 10;

const isOk = (status: LoopStatus | 'running' | 'paused') =>
  status !== 'running' && status !== 'paused' && isOkStatus(status);

/** The upper edge of the 1-2-5 bucket that holds `cost` (0 has its own bucket). */
export function costEdge(cost: number): number {
  if (cost <= 0) return 0;
  let edge = 10 ** Math.floor(Math.log10(cost));
  for (const step of [1, 2, 5, 10]) if (cost <= edge * step) return edge * step;
  edge *= 10;
  return edge;
}

/**
 * Sums re-decided runs into a `WhatIfSummary`, holding only counters and a few examples, so its
 * memory does not grow with the number of runs.
 * @example const tally = whatIfTally({ maxRetries: 1 }); tally.add(run, redecideRun(run, settings));
 */
export function whatIfTally(change: WhatIfChange) {
  const recorded: StatusMix = {};
  const counterfactual: StatusMix = {};
  const successes = { recorded: 0, kept: 0, lost: 0, gained: 0 };
  const cost = { recorded: 0, counterfactual: 0, saved: 0 };
  const timeMs = { recorded: 0, counterfactual: 0, saved: 0 };
  const buckets = new Map<number, [number, number]>();
  const reasons = new Map<string, number>();
  const examples: RunWhatIf[] = [];
  let runs = 0;
  let exact = 0;
  const bump = <K extends string>(mix: Partial<Record<K, number>>, key: K) => {
    mix[key] = (mix[key] ?? 0) + 1;
  };
  const bucket = (value: number, side: 0 | 1) => {
    const edge = costEdge(value);
    const counts = buckets.get(edge) ?? [0, 0];
    counts[side] += 1;
    buckets.set(edge, counts);
  };

  return {
    add(run: RecordedRun, decision: Redecision): void {
      runs += 1;
      bump(recorded, run.status);
      if (isOk(run.status)) successes.recorded += 1;
      const recordedTime = timeOf(run);
      const figures = {
        status: run.status,
        attempts: run.attempts,
        iterations: run.iterations,
        cost: run.cost,
        timeMs: recordedTime,
      };
      if (!decision.exact) {
        const reason = decision.reason.replace(/\d+(\.\d+)?/g, 'N');
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        if (examples.length < MAX_EXAMPLES) {
          examples.push({
            runId: run.runId,
            recorded: figures,
            unknown: { beyondStep: decision.beyondStep, reason: decision.reason },
          });
        }
        return;
      }
      exact += 1;
      const { outcome } = decision;
      bump(counterfactual, outcome.status);
      const wasOk = isOk(run.status);
      const nowOk = isOk(outcome.status);
      if (wasOk && nowOk) successes.kept += 1;
      else if (wasOk) successes.lost += 1;
      else if (nowOk) successes.gained += 1;
      cost.recorded += run.cost;
      cost.counterfactual += outcome.cost;
      timeMs.recorded += recordedTime;
      timeMs.counterfactual += outcome.timeMs;
      bucket(run.cost, 0);
      bucket(outcome.cost, 1);
      const changed =
        outcome.status !== run.status ||
        outcome.attempts !== run.attempts ||
        outcome.cost !== run.cost;
      if (changed && examples.length < MAX_EXAMPLES) {
        examples.push({ runId: run.runId, recorded: figures, counterfactual: outcome });
      }
    },
    finish(): WhatIfSummary {
      const edges = [...buckets.keys()].sort((a, b) => a - b);
      cost.saved = cost.recorded - cost.counterfactual;
      timeMs.saved = timeMs.recorded - timeMs.counterfactual;
      return {
        change,
        runs,
        exact,
        unknown: runs - exact,
        recorded,
        counterfactual,
        successes,
        cost,
        timeMs,
        costBuckets: {
          edges,
          recorded: edges.map((edge) => buckets.get(edge)?.[0] ?? 0),
          counterfactual: edges.map((edge) => buckets.get(edge)?.[1] ?? 0),
        },
        unknownReasons: [...reasons]
          .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
          .slice(0, MAX_REASONS)
          .map(([reason, count]) => ({ reason, runs: count })),
        examples,
      };
    },
  };
}

/** A run's recorded time: from its first step to the end of its last. */
function timeOf(run: RecordedRun): number {
  const first = run.trace[0];
  if (first === undefined) return 0;
  const ends = run.trace.reduce(
    (end, entry) => Math.max(end, entry.startedAt + entry.durationMs),
    0,
  );
  return Math.max(0, ends - first.startedAt);
}
