import type { CheckpointRecord, CheckpointStore } from 'loopchart';
import { MemoryCheckpointStore } from 'loopchart';
import { expect } from 'vitest';

/** A memory store a test can place any row in, at any `seq`. */
export class RowStore extends MemoryCheckpointStore {
  async put(row: CheckpointRecord): Promise<void> {
    await this.delete(row.runId);
    for (let seq = 1; seq < row.seq; seq += 1) await this.save({ ...row, seq });
    await this.save(row);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: an edit reaches anywhere into the stored JSON
export type RowEdit = (data: any) => void;

/**
 * Rewrites a stored row's JSON in place (as someone with access to the database would): the row
 * keeps its `seq`, status and state columns; only `data` changes.
 */
export async function editRow(
  store: CheckpointStore,
  runId: string,
  edit: RowEdit,
): Promise<CheckpointRecord> {
  const row = await store.load(runId);
  if (!row) throw new Error(`no row '${runId}'`);
  const data = JSON.parse(row.data);
  edit(data);
  const edited = { ...row, data: JSON.stringify(data) };
  await store.delete(runId);
  for (let seq = 1; seq <= row.seq; seq += 1) await store.save({ ...edited, seq });
  return edited;
}

/**
 * Collects unhandled rejections and uncaught exceptions for the whole file; `check()` fails the
 * test that let one through (after a turn of the event loop, so late ones count).
 */
export function unhandledRejections() {
  const seen: unknown[] = [];
  const note = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', note);
  process.on('uncaughtException', note);
  return {
    async check() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([]);
    },
  };
}
