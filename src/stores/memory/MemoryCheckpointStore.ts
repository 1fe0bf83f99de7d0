import { checkpointConflict } from '../kit/CheckpointError.js';
import type {
  CheckpointRecord,
  CheckpointStore,
  ListOptions,
  RunSummary,
  ScanOptions,
} from '../kit/CheckpointStore.js';
import { inScan } from '../kit/inScan.js';

/**
 * Keeps checkpoints in this process's memory: for tests, for pauses answered in the same process,
 * and as the baseline `loopchart/sqlite` is measured against. Nothing survives a restart.
 * @example const store = new MemoryCheckpointStore();
 *          const paused = await runLoop(config, 'draft', { store, runId: 'r1' });
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #rows = new Map<string, Readonly<CheckpointRecord>>();

  async save(record: CheckpointRecord): Promise<void> {
    const stored = this.#rows.get(record.runId)?.seq ?? 0;
    if (stored !== record.seq - 1) throw checkpointConflict(record, stored);
    this.#rows.delete(record.runId); // re-insert so iteration order is update order
    this.#rows.set(record.runId, Object.freeze({ ...record }));
  }

  async load(runId: string): Promise<CheckpointRecord | undefined> {
    const row = this.#rows.get(runId);
    return row && { ...row };
  }

  async list({
    status,
    limit = Number.POSITIVE_INFINITY,
  }: ListOptions = {}): Promise<RunSummary[]> {
    const rows = [...this.#rows.values()].reverse(); // newest save first among equal times
    return rows
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .filter((row) => status === undefined || row.status === status)
      .slice(0, limit)
      .map(({ data: _, ...summary }) => summary);
  }

  async delete(runId: string): Promise<boolean> {
    return this.#rows.delete(runId);
  }

  async scan(options: ScanOptions): Promise<CheckpointRecord[]> {
    const { after, limit } = options;
    return [...this.#rows.values()]
      .filter((row) => (after === undefined || row.runId > after) && inScan(row, options))
      .sort((a, b) => (a.runId < b.runId ? -1 : 1))
      .slice(0, Math.max(0, limit))
      .map((row) => ({ ...row }));
  }
}
