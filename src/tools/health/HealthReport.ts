import type { FailureKind } from '../../core/vocabulary/failures.js';
import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { HealthThresholds } from './healthThresholds.js';
import type { RedFlag } from './redFlags.js';
import type { VerdictClass } from './storedRunFacts.js';
import type { VerdictSeries } from './verdictSeries.js';

/** The health of one loop (one machine id) over the report's window. */
export interface LoopHealth {
  /** The machine id. */
  loop: string;
  /** Runs in the window, finished or not. */
  runs: number;
  finished: number;
  unfinished: { running: number; paused: number };
  /** Finished runs per terminal status; every one of the 13 statuses is present. */
  outcomes: Record<LoopStatus, number>;
  iterations: {
    /** `histogram[i]`: finished runs that made `i` refine cycles. */
    histogram: number[];
    /** The refine budget most finished runs had (the cap the histogram marks). */
    maxRetries: number;
    /** Finished runs per `maxRetries`, when the loop's config changed within the window. */
    caps: { maxRetries: number; runs: number }[];
    /** Finished runs whose refine cycles reached their own `maxRetries`. */
    atCap: number;
    /** Finished runs that spent the budget and then fell back (or had no fallback). */
    exhausted: number;
    mean: number;
  };
  verdicts: {
    counts: Record<VerdictClass, number>;
    /** Verdicts that were not `valid`. */
    invalid: number;
    /** Each invalid class as a share of `invalid` (0 when there are none). */
    shares: Record<Exclude<VerdictClass, 'valid'>, number>;
    series: VerdictSeries;
    /** Runs stored with the trace off: their verdicts are unknown. */
    untracedRuns: number;
  };
  stalls: {
    runs: number;
    /** The fingerprints runs stalled on, most frequent first (at most 10). */
    fingerprints: { fingerprint: string; runs: number; atIteration: number[] }[];
    /** Stalled runs on fingerprints not listed. */
    otherRuns: number;
  };
  /** `fallback` outcomes as a share of finished runs. */
  fallbackRate: number;
  cost: { total: number; mean: number; max: number };
  /** Failed step visits per failure kind, transient retries included. */
  failures: Record<FailureKind, number>;
  intermittent: { runs: number; successes: number };
  /** The red flags this loop raises, in the order of `RED_FLAGS`. */
  flags: RedFlag[];
}

/** What `loopHealth` returns; its JSON is the `loopchart health --json` output. */
export interface HealthReport {
  /** The shape version of this report; it changes only when a field changes meaning or goes. */
  format: 1;
  window: { since: number | null; until: number | null };
  loop: string | null;
  thresholds: HealthThresholds;
  /** Records read from the store (after the machine and window filters). */
  scanned: number;
  /** Records that are not loop runs (pipelines) or could not be read. */
  skipped: { pipeline: number; unreadable: number };
  loops: LoopHealth[];
}
