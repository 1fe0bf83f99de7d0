import { z } from 'zod';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
import { configErrorFrom } from '../zodIssues.js';
import type { HealthReport } from './HealthReport.js';
import { type HealthThresholds, resolveHealthThresholds } from './healthThresholds.js';
import { loopTally } from './loopTally.js';
import { scanRuns } from './scanRuns.js';
import { storedRunFacts } from './storedRunFacts.js';

/** Options of `loopHealth`. */
export interface LoopHealthOptions {
  /** Only this loop (machine id); default every loop in the store. */
  loop?: string;
  /** Only runs last saved at or after this time. */
  since?: Date | number;
  /** Only runs last saved before this time. */
  until?: Date | number;
  /** Overrides of `DEFAULT_HEALTH_THRESHOLDS`. */
  thresholds?: Partial<HealthThresholds>;
  /** Records read per page (default 500). */
  pageSize?: number;
}

const time = z.union([z.date(), z.number().finite()]).transform((t) => new Date(t).getTime());
const optionsSchema = z.strictObject({
  loop: z.string().min(1).optional(),
  since: time.optional(),
  until: time.optional(),
  thresholds: z.looseObject({}).optional(),
  pageSize: z.number().int().min(1).max(10_000).optional(),
});

/**
 * The health of stored loop runs, per loop: outcomes, iterations against the cap, the verdict
 * mix, stalls, cost, failures, and the red flags they raise. Streams the store page by page.
 * @example const report = await loopHealth(store, { loop: 'invoice', since: Date.now() - 86_400_000 });
 *          for (const flag of report.loops.flatMap((loop) => loop.flags)) alert(flag.message);
 */
export async function loopHealth(
  store: CheckpointStore,
  options: LoopHealthOptions = {},
): Promise<HealthReport> {
  const parsed = optionsSchema.safeParse(options, { reportInput: true });
  if (!parsed.success) {
    throw configErrorFrom('loopHealth options', parsed.error, Object.keys(optionsSchema.shape));
  }
  const { loop, since, until, pageSize } = parsed.data;
  const thresholds = resolveHealthThresholds(options.thresholds);
  const tallies = new Map<string, ReturnType<typeof loopTally>>();
  const skipped = { pipeline: 0, unreadable: 0 };
  let scanned = 0;
  const filter = {
    ...(loop === undefined ? {} : { machineId: loop }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
  for await (const record of scanRuns(store, filter, pageSize)) {
    scanned += 1;
    const facts = storedRunFacts(record);
    if ('reason' in facts) {
      skipped[facts.reason] += 1;
      continue;
    }
    let tally = tallies.get(facts.machineId);
    if (!tally) {
      tally = loopTally(facts.machineId);
      tallies.set(facts.machineId, tally);
    }
    tally.add(facts);
  }
  return {
    format: 1,
    window: { since: since ?? null, until: until ?? null },
    loop: loop ?? null,
    thresholds,
    scanned,
    skipped,
    loops: [...tallies]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, tally]) => tally.finish(thresholds)),
  };
}
