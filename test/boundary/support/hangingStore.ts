import { type CheckpointRecord, MemoryCheckpointStore } from 'loopchart';

/**
 * A memory store that stops answering: from checkpoint `hangFrom` on, a save never settles (and,
 * with `hangLoads`, neither does a load). `saves` counts the saves that went through.
 */
export class HangingStore extends MemoryCheckpointStore {
  hangFrom = Number.POSITIVE_INFINITY;
  hangLoads = false;
  saves = 0;

  override async save(record: CheckpointRecord): Promise<void> {
    if (record.seq >= this.hangFrom) return new Promise<void>(() => {});
    await super.save(record);
    this.saves += 1;
  }

  override async load(runId: string): Promise<CheckpointRecord | undefined> {
    if (this.hangLoads) return new Promise<undefined>(() => {});
    return super.load(runId);
  }
}

/** A promise's state, readable at once: settled (with its value or error) or not yet. */
export function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}
