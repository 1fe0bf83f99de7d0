import { z } from 'zod';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { HealthReport } from './HealthReport.js';
import { type HealthThresholds, resolveHealthThresholds } from './healthThresholds.js';
import { loopTally } from './loopTally.js';
import { parseRunScope, runScopeFields, scopedRuns } from './runScope.js';
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

const optionsSchema = z.strictObject({
  ...runScopeFields,
  thresholds: z.looseObject({}).optional(),
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
  const scope = parseRunScope('loopHealth options', optionsSchema, options);
  const { loop, since, until } = scope;
  const thresholds = resolveHealthThresholds(options.thresholds);
  const tallies = new Map<string, ReturnType<typeof loopTally>>();
  const skipped = { pipeline: 0, unreadable: 0 };
  let scanned = 0;
  for await (const record of scopedRuns(store, scope)) {
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
