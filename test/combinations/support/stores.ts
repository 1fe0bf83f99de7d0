import { type CheckpointRecord, type CheckpointStore, MemoryCheckpointStore } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { STORES } from './combination.js';
import { io } from './simulatedTime.js';

/** A store that dies at save `at`: that save and every later one fail, as if the process was killed. */
export function mortal(store: CheckpointStore, at: number | null) {
  let saves = 0;
  let dead = false;
  const view: CheckpointStore = {
    save: async (record) => {
      saves += 1;
      if (dead || (at !== null && saves >= at)) {
        dead = true;
        throw new Error('the process died');
      }
      return store.save(record);
    },
    load: (id) => store.load(id),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
  return { view, died: () => dead };
}

/** The store as a resumer sees it once a dead writer's claim has expired. */
export function afterExpiry(store: CheckpointStore): CheckpointStore {
  return {
    save: (record) => store.save(record),
    load: async (id) => {
      const record = await store.load(id);
      if (!record) return record;
      let data: unknown;
      try {
        data = JSON.parse(record.data);
      } catch {
        return record; // a row edited by hand: loopchart's to refuse as it is
      }
      if (typeof data !== 'object' || data === null || !('claim' in data)) return record;
      const { claim: _, ...rest } = data as Record<string, unknown>;
      return { ...record, data: JSON.stringify(rest) };
    },
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
}

/**
 * The store, counting every call into it as real I/O in flight: simulated time stands still until
 * it answers (a store that is slow in simulated time is a fault of its own: faultyStore.ts).
 */
export function timed(store: CheckpointStore, clock: { storeCalls: number }): CheckpointStore {
  const time =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      io.pending += 1;
      clock.storeCalls += 1;
      try {
        return await call(...args);
      } finally {
        io.pending -= 1;
      }
    };
  return {
    save: time((record) => store.save(record)),
    load: time((id) => store.load(id)),
    list: time((options) => store.list(options)),
    delete: time((id) => store.delete(id)),
  };
}

let postgres: CheckpointStore | undefined;

/** Gives the Postgres host a store (set up by the test); without one it runs on memory. */
export function usePostgres(store: CheckpointStore | undefined): void {
  postgres = store;
}

/**
 * A fresh store of that kind (Postgres: the one shared schema; each run has its own runId), its
 * calls counted into `clock`, and how to close it.
 */
export function openStore(kind: (typeof STORES)[number], clock: { storeCalls: number }) {
  const store =
    kind === 'sqlite'
      ? new SqliteCheckpointStore(':memory:')
      : kind === 'postgres' && postgres
        ? postgres
        : new MemoryCheckpointStore();
  const close = () => {
    if (store instanceof SqliteCheckpointStore) store.close();
  };
  return { store: timed(store, clock), close };
}

export function sameRow(a: CheckpointRecord | undefined, b: CheckpointRecord | undefined) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Replaces a run's stored row with `row`, keeping its `seq` (as someone with access to the
 * database would, or an operator restoring a backup): saves must follow the stored seq exactly.
 */
export async function putRow(store: CheckpointStore, row: CheckpointRecord): Promise<void> {
  await store.delete(row.runId);
  for (let seq = 1; seq <= row.seq; seq += 1) await store.save({ ...row, seq });
}
