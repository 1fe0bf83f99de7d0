import type { LoopConfig } from '../../../core/vocabulary/config.js';
import {
  permanentFailure,
  policyRejection,
  transientFailure,
  uncertainSideEffect,
} from '../../../core/vocabulary/failures.js';
import { LOOP_STATUSES } from '../../../core/vocabulary/statuses.js';
import { type BatteryCheck, CheckFailed, expectThat, runChecked } from './batteryCheck.js';
import { seededRandom, stepCounter, verdicts } from './scripted.js';

const RUNS = 300;

type Pick = <T>(items: readonly T[]) => T;

const attemptBehaviours = [
  (n: number) => `draft ${n}`,
  () => 'the same draft',
  () => {
    throw transientFailure('503 Service Unavailable', { effect: 'none', retryAfterMs: 0 });
  },
  () => {
    throw transientFailure('socket hang up');
  },
  () => {
    throw policyRejection('not allowed');
  },
  () => {
    throw permanentFailure('no such record');
  },
  () => {
    throw uncertainSideEffect('timed out after sending');
  },
  () => {
    throw 'a thrown string';
  },
] as const;

const verdictBehaviours = [
  () => verdicts.valid(),
  () => verdicts.correctable('always the same gap'),
  (n: number) => verdicts.correctable(`gap ${n}`),
  () => verdicts.fundamental(),
  () => verdicts.undiagnosed(),
  () => ({ severity: 'garbage' }),
  () => {
    throw transientFailure('validator busy', { effect: 'none', retryAfterMs: 0 });
  },
] as const;

/** One random loop: bounds, options and a script of step behaviours, all from `pick`. */
function randomLoop(pick: Pick, steps: ReturnType<typeof stepCounter>) {
  const maxRetries = pick([0, 1, 2, 3, 5]);
  const weighted = <T>(common: T, rare: readonly T[]) => pick([common, common, common, ...rare]);
  const config: LoopConfig<unknown, unknown> = {
    maxRetries,
    maxAttempts: pick([1, 2, maxRetries + 1, 2 * (maxRetries + 1)]),
    retryDelayMs: 0,
    stall: pick([false, { after: 2 }, { after: 3, on: 'verdict' as const }]),
    idempotent: pick([false, true]),
    attempt: steps.count('attempt', ({ attempt }) =>
      weighted(attemptBehaviours[0], attemptBehaviours.slice(1))(attempt),
    ),
    // Some verdicts are deliberately garbage: a validator's output is untrusted.
    validate: steps.count('validate', (_, { attempt }) =>
      weighted(verdictBehaviours[2], verdictBehaviours)(attempt),
    ) as LoopConfig['validate'],
    refine: steps.count('refine', ({ input, iteration }) => `${String(input)} r${iteration}`),
  };
  if (pick([true, false])) config.fallback = steps.count('fallback', () => 'fallback answer');
  return config;
}

/** SPEC §3's bounds, on many seeded random runs: the loop always ends, within every cap. */
export const boundsCheck: BatteryCheck = {
  name: 'a run always terminates within its bounds',
  async run(build) {
    const random = seededRandom(0x10095);
    const pick: Pick = (items) => items[Math.floor(random() * items.length)] as never;
    const seen = new Set<string>();
    for (let run = 1; run <= RUNS; run += 1) {
      const steps = stepCounter();
      const config = randomLoop(pick, steps);
      const outcome = await runChecked(build, config);
      const { maxRetries = 3, maxAttempts = 1 } = config;
      const where = `run ${run} (${outcome.status})`;
      expectThat(LOOP_STATUSES.includes(outcome.status), `${where}: unknown status`);
      expectThat(
        outcome.attempts <= maxAttempts,
        `${where}: ${outcome.attempts} attempts > maxAttempts ${maxAttempts}`,
      );
      expectThat(
        outcome.iterations <= maxRetries,
        `${where}: ${outcome.iterations} refine cycles > maxRetries ${maxRetries}`,
      );
      expectThat(steps.calls.fallback <= 1, `${where}: fallback ran ${steps.calls.fallback} times`);
      if (steps.calls.attempt !== outcome.attempts) {
        throw new CheckFailed(
          `${where}: attempt ran ${steps.calls.attempt} times, outcome says ${outcome.attempts}`,
        );
      }
      seen.add(outcome.status);
    }
    return `${RUNS} seeded random runs, ${seen.size} distinct statuses`;
  },
};
