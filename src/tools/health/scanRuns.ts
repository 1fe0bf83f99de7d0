import type {
  CheckpointRecord,
  CheckpointStore,
  ScanOptions,
} from '../../stores/kit/CheckpointStore.js';
import { inScan } from '../../stores/kit/inScan.js';

/**
 * Every stored record matching `filter`, one page at a time: through the store's `scan` when it
 * has one, otherwise through `list` (summaries only) and one `load` per run.
 * @example for await (const record of scanRuns(store, { machineId: 'invoice' })) count += 1;
 */
export async function* scanRuns(
  store: CheckpointStore,
  filter: Omit<ScanOptions, 'after' | 'limit'> = {},
  pageSize = 500,
): AsyncGenerator<CheckpointRecord> {
  if (store.scan) {
    let after: string | undefined;
    for (;;) {
      const page = await store.scan({
        ...filter,
        ...(after === undefined ? {} : { after }),
        limit: pageSize,
      });
      yield* page;
      if (page.length < pageSize) return;
      after = page.at(-1)?.runId;
    }
  }
  for (const summary of await store.list()) {
    if (!inScan(summary, filter)) continue;
    const record = await store.load(summary.runId);
    if (record && inScan(record, filter)) yield record;
  }
}
