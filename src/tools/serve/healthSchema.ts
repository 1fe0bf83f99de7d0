import { z } from 'zod';
import { FAILURE_KINDS } from '../../core/vocabulary/failures.js';
import { LOOP_STATUSES } from '../../core/vocabulary/statuses.js';
import type { HealthReport, LoopHealth } from '../health/HealthReport.js';
import { HEALTH_THRESHOLD_NAMES } from '../health/healthThresholds.js';
import { RED_FLAGS } from '../health/redFlags.js';
import { VERDICT_CLASSES } from '../health/storedRunFacts.js';
import type { Fits, SameKeys } from './typeChecks.js';

/** An object with one count (or share) per name, and no other field. */
const counts = <K extends string>(names: readonly K[]) =>
  z.strictObject(
    Object.fromEntries(names.map((name) => [name, z.number()])) as Record<K, z.ZodNumber>,
  );

const invalidClasses = VERDICT_CLASSES.filter(
  (name): name is Exclude<typeof name, 'valid'> => name !== 'valid',
);
const flagIds = RED_FLAGS.map((flag) => flag.id) as [string, ...string[]];

export const loopHealthSchema = z.strictObject({
  loop: z.string(),
  runs: z.number(),
  finished: z.number(),
  unfinished: z.strictObject({ running: z.number(), paused: z.number() }),
  outcomes: counts(LOOP_STATUSES),
  iterations: z.strictObject({
    histogram: z.array(z.number()),
    maxRetries: z.number(),
    caps: z.array(z.strictObject({ maxRetries: z.number(), runs: z.number() })),
    atCap: z.number(),
    exhausted: z.number(),
    mean: z.number(),
  }),
  verdicts: z.strictObject({
    counts: counts(VERDICT_CLASSES),
    invalid: z.number(),
    shares: counts(invalidClasses),
    series: z.strictObject({
      widthMs: z.number(),
      buckets: z.array(z.strictObject({ start: z.number(), counts: counts(VERDICT_CLASSES) })),
    }),
    untracedRuns: z.number(),
  }),
  stalls: z.strictObject({
    runs: z.number(),
    fingerprints: z.array(
      z.strictObject({
        fingerprint: z.string(),
        runs: z.number(),
        atIteration: z.array(z.number()),
      }),
    ),
    otherRuns: z.number(),
  }),
  fallbackRate: z.number(),
  cost: z.strictObject({ total: z.number(), mean: z.number(), max: z.number() }),
  failures: counts(FAILURE_KINDS),
  intermittent: z.strictObject({ runs: z.number(), successes: z.number() }),
  flags: z.array(
    z.strictObject({
      id: z.enum(flagIds),
      title: z.string(),
      message: z.string(),
      value: z.number(),
      threshold: z.number(),
      counts: z.record(z.string(), z.number()),
    }),
  ),
});

/** `loopHealth`'s report as JSON (docs/health.md); the run API's health answer. */
export const healthReportSchema = z.strictObject({
  format: z.literal(1),
  window: z.strictObject({ since: z.number().nullable(), until: z.number().nullable() }),
  loop: z.string().nullable(),
  thresholds: counts(HEALTH_THRESHOLD_NAMES),
  scanned: z.number(),
  skipped: z.strictObject({ pipeline: z.number(), unreadable: z.number() }),
  loops: z.array(loopHealthSchema),
});

const sameKeys: [
  SameKeys<z.infer<typeof healthReportSchema>, HealthReport>,
  SameKeys<z.infer<typeof loopHealthSchema>, LoopHealth>,
  SameKeys<z.infer<typeof loopHealthSchema>['iterations'], LoopHealth['iterations']>,
  SameKeys<z.infer<typeof loopHealthSchema>['verdicts'], LoopHealth['verdicts']>,
  SameKeys<z.infer<typeof loopHealthSchema>['stalls'], LoopHealth['stalls']>,
  Fits<HealthReport, z.infer<typeof healthReportSchema>>,
] = [true, true, true, true, true, true];
void sameKeys;
