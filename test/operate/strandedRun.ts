/**
 * A crash without a child process: the row a run left while its attempt was in flight, copied
 * into a fresh store as a process that died then would leave it.
 */
import { type CheckpointRecord, type LoopConfig, MemoryCheckpointStore, runLoop } from 'loopchart';

/** A `charge` loop whose attempt (not idempotent) counts its calls, hanging while `hang` is set. */
export function chargeLoop() {
  const calls: string[] = [];
  let hang = true;
  const config: LoopConfig<string, string> = {
    id: 'charge',
    attempt: ({ input, signal }) => {
      calls.push(input);
      if (!hang) return `charged ${input}`;
      return new Promise<string>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      );
    },
    validate: () => ({ valid: true }),
  };
  return { config, calls, wake: () => (hang = false) };
}

/** The row a process left when it died with `runId`'s attempt in flight, in a fresh store. */
export async function crashedRun(runId: string, claimOwner?: string) {
  const loop = chargeLoop();
  const live = new MemoryCheckpointStore();
  const stop = new AbortController();
  const run = runLoop(loop.config, 'order 7', {
    store: live,
    runId,
    signal: stop.signal,
    ...(claimOwner ? { claimOwner } : {}),
  });
  while (loop.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
  const row = (await live.load(runId)) as CheckpointRecord;
  stop.abort();
  await run;
  const store = new MemoryCheckpointStore();
  await store.save({ ...row, seq: 1 });
  loop.calls.length = 0;
  loop.wake();
  return { ...loop, store, row: (await store.load(runId)) as CheckpointRecord };
}
