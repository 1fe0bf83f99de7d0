import { CheckpointError } from '../persistence/CheckpointError.js';
import type { CheckpointRecord, CheckpointStore } from '../persistence/CheckpointStore.js';

/**
 * A view of `store` for one answer: it reports each save that landed, and its `load` refuses
 * (with `conflict`) a row that is no longer at `ifSeq`, which pins a pipeline's answer the way
 * `resumeLoop`'s own `ifSeq` pins a loop's. The store's compare-and-set does the rest.
 */
export function observedStore(
  store: CheckpointStore,
  ifSeq: number,
  onSaved: (record: CheckpointRecord) => void,
): CheckpointStore {
  return {
    save: async (record) => {
      await store.save(record);
      onSaved(record);
    },
    load: async (runId) => {
      const record = await store.load(runId);
      if (record && record.seq !== ifSeq) {
        throw new CheckpointError(
          'conflict',
          runId,
          `loopchart: run '${runId}' is at checkpoint #${record.seq}, not #${ifSeq} (ifSeq): it moved on since that pause, so the answer was not applied`,
        );
      }
      return record;
    },
    list: (options) => store.list(options),
    delete: (runId) => store.delete(runId),
  };
}
