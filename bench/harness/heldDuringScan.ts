import type { CheckpointStore } from 'loopchart';
import type { ScanOptions } from 'loopchart/persistence';
import type { SqliteCheckpointStore } from 'loopchart/sqlite';

/**
 * The most heap (after a full collection, over `baseline`) held at any page boundary while `read`
 * scans `store`: what a streaming reader keeps between pages. Needs `--expose-gc`.
 * @example const held = await heldDuringScan(store, baseline, (probe) => loopHealth(probe));
 */
export async function heldDuringScan(
  store: SqliteCheckpointStore,
  baseline: number,
  read: (probe: CheckpointStore) => Promise<unknown>,
): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let most = 0;
  const probe: CheckpointStore = {
    save: (record) => store.save(record),
    load: (runId) => store.load(runId),
    list: (options) => store.list(options),
    delete: (runId) => store.delete(runId),
    scan: async (options: ScanOptions) => {
      const page = await store.scan(options);
      gc?.();
      most = Math.max(most, process.memoryUsage().heapUsed - baseline);
      return page;
    },
  };
  await read(probe);
  return most;
}
