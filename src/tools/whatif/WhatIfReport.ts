import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { WhatIfChange } from './candidateSettings.js';
import type { RunFigures } from './Redecision.js';

/** Runs per status; `running` and `paused` count runs that had not ended when read. */
export type StatusMix = Partial<Record<LoopStatus | 'running' | 'paused', number>>;

/** One run re-decided, as the report lists it. */
export interface RunWhatIf {
  runId: string;
  recorded: Omit<RunFigures, 'status'> & { status: LoopStatus | 'running' | 'paused' };
  /** The outcome under the candidate config; absent when it is unknown. */
  counterfactual?: RunFigures;
  /** Where the record stops knowing, and why (absent when exact). */
  unknown?: { beyondStep: number; reason: string };
}

/** The comparison of one candidate config with the recorded runs of a loop (or of every loop). */
export interface WhatIfSummary {
  change: WhatIfChange;
  /** Loop runs re-decided. */
  runs: number;
  exact: number;
  unknown: number;
  recorded: StatusMix;
  /** Exact runs per counterfactual status. */
  counterfactual: StatusMix;
  /** Ok outcomes (proceed, fallback, empty); `kept`, `lost`, `gained` count exact runs only. */
  successes: { recorded: number; kept: number; lost: number; gained: number };
  /** Summed over the exact runs: what they cost as recorded and would cost under the candidate. */
  cost: { recorded: number; counterfactual: number; saved: number };
  timeMs: { recorded: number; counterfactual: number; saved: number };
  /**
   * Per-run cost in buckets of a 1-2-5 series: `recorded[i]` and `counterfactual[i]` count exact
   * runs whose cost is at most `edges[i]` (and above `edges[i - 1]`).
   */
  costBuckets: { edges: number[]; recorded: number[]; counterfactual: number[] };
  /** Why runs are unknown, most frequent first (numbers in the reasons written as N). */
  unknownReasons: { reason: string; runs: number }[];
  /** Up to 20 runs whose outcome changes or is unknown, in scan order. */
  examples: RunWhatIf[];
}

/** What `whatIf` returns; its JSON is `loopchart what-if --json`. */
export interface WhatIfReport {
  /** The shape version of this report. */
  format: 1;
  loop: string | null;
  window: { since: number | null; until: number | null };
  /** Records read (after the machine and window filters). */
  scanned: number;
  /** Records that are not loop runs what-if can read. */
  skipped: number;
  /** One summary per candidate: one for a config, one per value for a sweep. */
  candidates: WhatIfSummary[];
  /** With `sweep`: the knob swept. */
  sweep?: string;
}
