import { VERDICT_CLASSES, type VerdictClass } from './storedRunFacts.js';

/** Bucket widths, each a whole multiple of the one before, so coarsening merges buckets exactly. */
const WIDTHS_MS = [
  1_000, 5_000, 15_000, 60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
  86_400_000, 604_800_000,
];
/** Buckets held while streaming; the finished series is coarsened to at most `MAX_BUCKETS`. */
const HELD_BUCKETS = 512;
export const MAX_BUCKETS = 48;

/** Verdicts counted per time bucket, `start` in ms since the epoch. */
export interface VerdictBucket {
  start: number;
  counts: Record<VerdictClass, number>;
}

/** The verdict mix over time: buckets of `widthMs`, oldest first, empty buckets left out. */
export interface VerdictSeries {
  widthMs: number;
  buckets: VerdictBucket[];
}

/**
 * Counts verdicts into time buckets in bounded memory: when more than a few hundred buckets are
 * held it moves to the next wider width, whatever the time span of the runs.
 */
export function verdictSeries() {
  let level = 0;
  let buckets = new Map<number, Record<VerdictClass, number>>();
  const widthOf = (at: number) => WIDTHS_MS[at] ?? (WIDTHS_MS.at(-1) as number);
  const coarsen = (limit: number) => {
    while (buckets.size > limit && level < WIDTHS_MS.length - 1) {
      level += 1;
      const merged = new Map<number, Record<VerdictClass, number>>();
      for (const [start, counts] of buckets) add(merged, start, counts);
      buckets = merged;
    }
  };
  const add = (
    into: Map<number, Record<VerdictClass, number>>,
    at: number,
    counts: Partial<Record<VerdictClass, number>>,
  ) => {
    const width = widthOf(level);
    const start = Math.floor(at / width) * width;
    let bucket = into.get(start);
    if (!bucket) {
      bucket = emptyCounts();
      into.set(start, bucket);
    }
    for (const verdict of VERDICT_CLASSES) bucket[verdict] += counts[verdict] ?? 0;
  };
  return {
    add(verdict: VerdictClass, at: number) {
      add(buckets, at, { [verdict]: 1 });
      coarsen(HELD_BUCKETS);
    },
    finish(): VerdictSeries {
      coarsen(MAX_BUCKETS);
      return {
        widthMs: widthOf(level),
        buckets: [...buckets]
          .sort(([a], [b]) => a - b)
          .map(([start, counts]) => ({ start, counts })),
      };
    },
  };
}

export function emptyCounts(): Record<VerdictClass, number> {
  return { valid: 0, correctable: 0, fundamental: 0, no_diagnostic: 0, malformed: 0 };
}
