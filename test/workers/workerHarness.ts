import { randomUUID } from 'node:crypto';
import {
  type ClaimedRun,
  createWorker,
  type RunResult,
  type Worker,
  type WorkerOptions,
} from 'loopchart';
import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { dropSchema, PG_URL, schemaName } from './postgresServer.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop name no other test uses, so workers of different tests never claim each other's runs. */
export const loopName = () => `loop-${randomUUID().slice(0, 8)}`;

/** Polls `probe` every 20 ms until it returns something truthy. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Inside a describe: a store on a schema of its own (dropped after), and `start`, which creates a
 * worker on it that records what it settles and what goes wrong (stopped after each test).
 */
export function useWorkerStore(label: string) {
  const schema = schemaName(label);
  const workers: Worker[] = [];
  const harness = {
    schema,
    store: undefined as unknown as PostgresCheckpointStore,
    start(options: Omit<WorkerOptions, 'store'>) {
      const settled: { result: RunResult; run: ClaimedRun }[] = [];
      const errors: { error: unknown; run: ClaimedRun | undefined }[] = [];
      const worker = createWorker({
        store: harness.store,
        pollMs: 20,
        onSettled: (result, run) => settled.push({ result, run }),
        onError: (error, run) => errors.push({ error, run }),
        ...options,
      });
      workers.push(worker);
      return { worker, settled, errors };
    },
    /** A probe for `waitFor`: the run's queue entry once it is done or failed. */
    done: (runId: string) => async () => {
      const entry = await harness.store.entry(runId);
      return entry?.state === 'done' || entry?.state === 'failed' ? entry : undefined;
    },
  };
  beforeAll(async () => {
    harness.store = new PostgresCheckpointStore({ connectionString: PG_URL, schema });
    await harness.store.setup();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });
  afterAll(async () => {
    await harness.store?.close();
    await dropSchema(schema);
  });
  return harness;
}
