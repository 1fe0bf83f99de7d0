import type { CheckpointRecord, CheckpointStore } from '../../stores/kit/CheckpointStore.js';

/**
 * A view of `store` for one answer that reports each save that landed, so the server can reply
 * once the answer took.
 */
export function observedStore(
  store: CheckpointStore,
  onSaved: (record: CheckpointRecord) => void,
): CheckpointStore {
  return {
    save: async (record) => {
      await store.save(record);
      onSaved(record);
    },
    load: (runId) => store.load(runId),
    list: (options) => store.list(options),
    delete: (runId) => store.delete(runId),
  };
}
