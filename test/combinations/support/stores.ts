import { type CheckpointRecord, type CheckpointStore, MemoryCheckpointStore } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { STORES } from './combination.js';

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
      const { claim: _, ...data } = JSON.parse(record.data);
      return { ...record, data: JSON.stringify(data) };
    },
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
}

/** The store, timing every call into it: time spent in a store is the server's, not loopchart's. */
export function timed(store: CheckpointStore, clock: { storeMs: number }): CheckpointStore {
  const time =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await call(...args);
      } finally {
        clock.storeMs += performance.now() - started;
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
 * A fresh store of that kind (Postgres: the one shared schema; each run has its own runId),
 * timed into `clock`, and how to close it.
 */
export function openStore(kind: (typeof STORES)[number], clock: { storeMs: number }) {
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
