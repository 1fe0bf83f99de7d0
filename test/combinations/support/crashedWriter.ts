/**
 * A writer that dies mid-run, in one process on simulated time (issue 34): its loop is driven
 * until the generated crash point (a step in flight, a retry wait, a pause), then abandoned; the
 * row it left is copied into a fresh store as a dead process would leave it (strandedRun.ts).
 */
import fc from 'fast-check';
import {
  type CheckpointRecord,
  type CheckpointStore,
  type LoopConfig,
  MemoryCheckpointStore,
  type RunResult,
  resumeLoop,
  runLoop,
  transientFailure,
} from 'loopchart';
import { drive, io } from './simulatedTime.js';
import { timed } from './stores.js';

export type Step = 'attempt' | 'validate' | 'refine';

export interface Shape {
  maxRetries: number;
  refine: boolean;
  /** The first attempt (by its record-derived number) the validator accepts. */
  acceptAt: number;
  idempotent: Record<Step, boolean>;
  review: boolean;
}

export interface Crash {
  /** Where the writer dies: a step in flight, the retry wait after a transient failure, a pause. */
  at: Step | 'wait' | 'pause';
  /** Which call of that step (or which attempt fails transiently before the wait). */
  nth: number;
}

export interface Call {
  step: Step;
  key: string;
  idempotent: boolean;
  attempt: number;
  iteration: number;
}

export const shapeArb: fc.Arbitrary<Shape> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 2 }),
  refine: fc.boolean(),
  acceptAt: fc.integer({ min: 1, max: 8 }),
  idempotent: fc.record({ attempt: fc.boolean(), validate: fc.boolean(), refine: fc.boolean() }),
  review: fc.boolean(),
});

export const crashArb: fc.Arbitrary<Crash> = fc.record({
  at: fc.constantFrom('attempt', 'validate', 'refine', 'wait', 'pause'),
  nth: fc.integer({ min: 1, max: 2 }),
});

export const CLAIM_TTL_MS = 5_000;

/** The scenario's loop: calls are logged with a key that names the step's effect. */
export function loopOf(
  shape: Shape,
  calls: Call[],
  crash?: Crash & { armed: boolean; hit?: () => void },
) {
  const counts: Record<string, number> = {};
  const dies = (step: Step | 'wait', signal: AbortSignal) => {
    if (!crash?.armed || crash.at !== step) return null;
    counts[step] = (counts[step] ?? 0) + 1;
    if (counts[step] !== crash.nth) return null;
    crash.armed = false;
    crash.hit?.();
    if (step === 'wait') throw transientFailure('503 Service Unavailable', { effect: 'none' });
    return new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason)),
    );
  };
  const log = (step: Step, key: string, attempt: number, iteration: number) =>
    calls.push({ step, key, idempotent: shape.idempotent[step], attempt, iteration });
  const config: LoopConfig<string, string> = {
    id: 'op',
    maxRetries: shape.maxRetries,
    idempotent: shape.idempotent,
    retryDelayMs: 2_000,
    deadlineMs: null,
    stall: false,
    ...(shape.review ? { review: { beforeProceed: true } } : {}),
    attempt: ({ input, attempt, iteration, signal }) => {
      log('attempt', `a${attempt}`, attempt, iteration);
      const hang = dies('attempt', signal) ?? dies('wait', signal);
      return hang ?? `${input}@${attempt}`;
    },
    validate: (candidate, { signal }) => {
      log('validate', `v${candidate}`, 0, 0);
      return (
        dies('validate', signal) ??
        (Number(candidate.split('@').at(-1)) >= shape.acceptAt
          ? { valid: true }
          : { valid: false, error: { severity: 'correctable', message: `not yet: ${candidate}` } })
      );
    },
    ...(shape.refine
      ? {
          refine: ({ input, iteration, attempt, signal }) => {
            log('refine', `r${iteration}`, attempt, iteration);
            return dies('refine', signal) ?? `${input.split('+')[0]}+${iteration}`;
          },
        }
      : {}),
  };
  return config;
}

const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Real turns until no store call is in flight for a few turns in a row (the writer is quiet). */
export async function quiet(saves: () => number) {
  let last = saves();
  for (let still = 0, turns = 0; still < 4 && turns < 200; turns++) {
    await realTurn();
    still = io.pending === 0 && saves() === last ? still + 1 : 0;
    last = saves();
  }
}

/**
 * Runs the loop under `claimOwner` until it reaches `crash` (or ends first), abandons it, and
 * copies the row it left into `target` (returned timed, as real I/O): `hit` when it died at `crash`,
 * `crashed` also when it died at a pause.
 */
export async function crashedWriter(
  shape: Shape,
  crash: Crash,
  target: CheckpointStore,
  runId: string,
  calls: Call[],
) {
  const live = new MemoryCheckpointStore();
  const clock = { storeCalls: 0 };
  const armed: Crash & { armed: boolean; hit?: () => void } = {
    ...crash,
    armed: crash.at !== 'pause',
  };
  const reached = new Promise<'crash'>((resolve) => (armed.hit = () => resolve('crash')));
  const config = loopOf(shape, calls, armed);
  const stop = new AbortController();
  const run = runLoop(config, 'in', {
    store: timed(live, clock),
    runId,
    claimOwner: 'pod-a',
    claimTtlMs: CLAIM_TTL_MS,
    signal: stop.signal,
  });
  const first = await drive(Promise.race([run.then(() => 'ended' as const), reached]));
  if (first.value === 'crash') await quiet(() => clock.storeCalls);
  const row = (await live.load(runId)) as CheckpointRecord;
  stop.abort();
  await drive(run.catch(() => undefined));
  const store = timed(target, clock);
  await store.save({ ...row, seq: 1 });
  const copied = (await store.load(runId)) as CheckpointRecord;
  const hit = first.value === 'crash';
  return { store, row: copied, hit, crashed: hit || row.status === 'paused' };
}

/** What a person answers "it happened" with, per step in flight. */
export const happened: Record<Step, unknown> = {
  attempt: 'in@99',
  validate: { valid: true },
  refine: 'in+9',
};

/** Answers reviews until the run ends (a bounded number of pauses); returns the last result. */
export async function settle<C>(
  config: LoopConfig<string, C>,
  store: CheckpointStore,
  runId: string,
  result?: RunResult<C>,
) {
  let last = result;
  for (let pauses = 0; pauses < 6; pauses++) {
    const row = await store.load(runId);
    if (row?.status !== 'paused') return last;
    const event = { type: 'review.continue' } as const;
    last = (await drive(resumeLoop(config, { store, runId, event }))).value;
  }
  throw new Error(`run ${runId} still paused after 6 answers`);
}
