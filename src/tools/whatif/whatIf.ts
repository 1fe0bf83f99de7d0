import { z } from 'zod';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { parseRunScope, runScopeFields, scopedRuns } from '../health/runScope.js';
import { candidateSettings, parseWhatIfChange, type WhatIfChange } from './candidateSettings.js';
import { recordedRun } from './recordedRun.js';
import { redecideRun } from './redecideRun.js';
import type { WhatIfReport } from './WhatIfReport.js';
import { whatIfTally } from './whatIfTally.js';

/** Options of `whatIf`. */
export interface WhatIfOptions {
  /** Only this loop (machine id); default every loop in the store. */
  loop?: string;
  /** The candidate: the recorded config with these knobs changed. */
  config?: WhatIfChange;
  /** Several candidates at once (a sweep), each summarised on its own; the store is read once. */
  candidates?: WhatIfChange[];
  /** The knob a sweep varies, named in the report. */
  sweep?: string;
  /** Only runs last saved at or after / before these times. */
  since?: Date | number;
  until?: Date | number;
  /** Records read per page (default 500). */
  pageSize?: number;
}

const optionsSchema = z.strictObject({
  ...runScopeFields,
  config: z.unknown().optional(),
  candidates: z.array(z.unknown()).min(1).max(100).optional(),
  sweep: z.string().optional(),
});

/**
 * Re-decides every stored run of a loop under a candidate config, without calling any step: per
 * run the counterfactual outcome where the record holds every step it needs, "unknown beyond step
 * N" where it does not; summed into the status mix before and after, successes kept, lost and
 * gained, and cost and time saved. Streams the store page by page.
 * @example const report = await whatIf(store, { loop: 'invoice', config: { maxRetries: 1 } });
 *          const [candidate] = report.candidates; console.log(candidate.successes.lost);
 */
export async function whatIf(
  store: CheckpointStore,
  options: WhatIfOptions = {},
): Promise<WhatIfReport> {
  const scope = parseRunScope('whatIf options', optionsSchema, options);
  const { loop, since, until } = scope;
  const changes = (options.candidates ?? [options.config ?? {}]).map(parseWhatIfChange);
  const tallies = changes.map(whatIfTally);
  let scanned = 0;
  let skipped = 0;
  for await (const record of scopedRuns(store, scope)) {
    scanned += 1;
    const run = recordedRun(record);
    if ('unreadable' in run) {
      skipped += 1;
      continue;
    }
    changes.forEach((change, index) => {
      tallies[index]?.add(run, redecideRun(run, candidateSettings(run.settings, change)));
    });
  }
  return {
    format: 1,
    loop: loop ?? null,
    window: { since: since ?? null, until: until ?? null },
    scanned,
    skipped,
    candidates: tallies.map((tally) => tally.finish()),
    ...(options.sweep === undefined ? {} : { sweep: options.sweep }),
  };
}
