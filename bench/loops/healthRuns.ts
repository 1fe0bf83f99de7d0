/**
 * Stored runs for the health report, made by running real loops with scripted steps: one set per
 * red flag and a healthy one (the tests and the page use them), and `replicateRuns`, which copies
 * real final checkpoints under new run ids to make the 10,000-run bench and browser fixture.
 */
import {
  type CheckpointRecord,
  type CheckpointStore,
  MemoryCheckpointStore,
  runLoop,
  transientFailure,
  type ValidationResult,
  withCost,
} from 'loopchart';

/**
 * One scripted run: `plan` is the validator's answer to each attempt in turn — `v` valid,
 * `c` correctable, `f` fundamental, `n` no diagnostic, `m` malformed — its last letter repeating.
 */
export interface ScriptedRun {
  plan: string;
  /** The attempt returns the same candidate every time (a stall, given a constant `c`). */
  stuck?: boolean;
  /** The first attempt fails transiently with no effect: the retry is an intermittent success. */
  flaky?: boolean;
  /** Cost each attempt reports. */
  cost?: number;
}

const times = (n: number, run: ScriptedRun): ScriptedRun[] => Array.from({ length: n }, () => run);

/** The fixture sets: each raises exactly the red flag it is named after; `healthy` raises none. */
export const HEALTH_FIXTURES = {
  healthy: [
    ...times(12, { plan: 'v', cost: 2 }),
    ...times(6, { plan: 'cv', cost: 2 }),
    ...times(5, { plan: 'ccv', cost: 2, flaky: true }),
    ...times(5, { plan: 'f', cost: 1 }),
    ...times(2, { plan: 'cccc', cost: 3 }),
  ],
  all_correctable: [
    ...times(10, { plan: 'cv' }),
    ...times(12, { plan: 'ccv' }),
    ...times(4, { plan: 'cccv' }),
    ...times(4, { plan: 'cccc' }),
  ],
  exhausted_then_fallback: [
    ...times(12, { plan: 'cccc' }),
    ...times(10, { plan: 'cv' }),
    ...times(8, { plan: 'f' }),
  ],
  no_proceed: [
    ...times(10, { plan: 'f' }),
    ...times(8, { plan: 'cf' }),
    ...times(4, { plan: 'n' }),
    ...times(3, { plan: 'm' }),
  ],
  stalls: [
    ...times(8, { plan: 'c', stuck: true }),
    ...times(16, { plan: 'v' }),
    ...times(6, { plan: 'f' }),
  ],
} satisfies Record<string, ScriptedRun[]>;

export type HealthFixture = keyof typeof HEALTH_FIXTURES;

const ANSWERS: Record<string, unknown> = {
  v: { valid: true },
  c: { valid: false, error: { severity: 'correctable', message: 'the total is missing' } },
  f: { valid: false, error: { severity: 'fundamental', message: 'not an invoice' } },
  n: { valid: false },
  m: 'looks fine to me',
};

/**
 * Runs `runs` as loop `loop` (maxRetries 3, with a fallback), each checkpointed to `store` as
 * `<loop>-<n>`.
 * @example await runScripted(store, 'invoice', HEALTH_FIXTURES.healthy);
 */
export async function runScripted(
  store: CheckpointStore,
  loop: string,
  runs: readonly ScriptedRun[],
): Promise<void> {
  for (const [index, run] of runs.entries()) {
    let attempts = 0;
    let validations = 0;
    await runLoop(
      {
        id: loop,
        maxRetries: 3,
        retryDelayMs: 0,
        attempt: () => {
          attempts += 1;
          if (run.flaky && attempts === 1) throw transientFailure('503', { effect: 'none' });
          const draft = run.stuck ? 'the same draft' : `draft ${attempts}`;
          return run.cost === undefined ? draft : withCost(draft, run.cost);
        },
        validate: () => {
          const letter = run.plan[validations] ?? run.plan.at(-1) ?? 'v';
          validations += 1;
          return ANSWERS[letter] as ValidationResult;
        },
        fallback: () => 'the template answer',
      },
      { index },
      { store, runId: `${loop}-${String(index).padStart(3, '0')}` },
    );
  }
}

/**
 * Every fixture set, each as its own loop (machine id `fixture-<name>`), in a memory store.
 * @example const store = await fixtureStore();
 */
export async function fixtureStore(
  names: readonly HealthFixture[] = Object.keys(HEALTH_FIXTURES) as HealthFixture[],
): Promise<MemoryCheckpointStore> {
  const store = new MemoryCheckpointStore();
  for (const name of names) await runScripted(store, `fixture-${name}`, HEALTH_FIXTURES[name]);
  return store;
}

/**
 * Saves `count` copies of `templates` (real final checkpoints) into `target` under new run ids,
 * their times spread evenly over `spanMs` ending at `end`, in batches through `save`.
 * @example await replicateRuns(records, sqlite, 10_000, { end: Date.now(), spanMs: 7 * 86_400_000 });
 */
export async function replicateRuns(
  templates: readonly CheckpointRecord[],
  target: CheckpointStore,
  count: number,
  { end, spanMs, prefix = 'run' }: { end: number; spanMs: number; prefix?: string },
): Promise<void> {
  const parsed = templates.map((record) => ({ record, data: JSON.parse(record.data) as Stored }));
  for (let i = 0; i < count; i++) {
    const template = parsed[i % parsed.length];
    if (!template) return;
    const runId = `${prefix}-${String(i).padStart(6, '0')}`;
    const savedAt = Math.round(end - spanMs + (spanMs * (i + 1)) / count);
    const shift = savedAt - template.data.savedAt;
    const data: Stored = {
      ...template.data,
      runId,
      seq: 1,
      savedAt,
      trace: template.data.trace.map((entry) => ({ ...entry, startedAt: entry.startedAt + shift })),
    };
    await target.save({
      ...template.record,
      runId,
      seq: 1,
      updatedAt: savedAt,
      data: JSON.stringify(data),
    });
  }
}

interface Stored {
  runId: string;
  seq: number;
  savedAt: number;
  trace: { startedAt: number }[];
  [key: string]: unknown;
}
