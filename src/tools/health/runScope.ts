import { z } from 'zod';
import { configErrorFrom } from '../../core/vocabulary/zodIssues.js';
import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { scanRuns } from './scanRuns.js';

const time = z.union([z.date(), z.number().finite()]).transform((t) => new Date(t).getTime());

/** The options every reader of stored runs takes: which loop, which window, how many a page. */
export const runScopeFields = {
  loop: z.string().min(1).optional(),
  since: time.optional(),
  until: time.optional(),
  pageSize: z.number().int().min(1).max(10_000).optional(),
};

/** The stored runs a reader's options select, already parsed by `parseRunScope`. */
export interface RunScope {
  loop?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  pageSize?: number | undefined;
}

/**
 * `options` parsed by the strict `schema` (built on `runScopeFields`); a bad field throws
 * `LoopConfigError` naming it, under `what`.
 * @example const { loop, since } = parseRunScope('loopHealth options', optionsSchema, options);
 */
export function parseRunScope<S extends z.ZodObject>(
  what: string,
  schema: S,
  options: unknown,
): z.output<S> {
  const parsed = schema.safeParse(options, { reportInput: true });
  if (!parsed.success) throw configErrorFrom(what, parsed.error, Object.keys(schema.shape));
  return parsed.data;
}

/**
 * The stored runs `scope` selects, page by page.
 * @example for await (const record of scopedRuns(store, { loop: 'invoice' })) count += 1;
 */
export function scopedRuns(
  store: CheckpointStore,
  scope: RunScope,
): AsyncGenerator<CheckpointRecord> {
  const { loop, since, until, pageSize } = scope;
  const filter = {
    ...(loop === undefined ? {} : { machineId: loop }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
  return scanRuns(store, filter, pageSize);
}
