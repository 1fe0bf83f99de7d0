import { routeAfterValidation } from '../../../core/decisions/routeAfterValidation.js';
import type { ValidationError } from '../../../core/vocabulary/validation.js';
import {
  type BatteryCheck,
  type BuildMachine,
  decisionsOf,
  expectEqual,
  runChecked,
} from './batteryCheck.js';
import { stepCounter, verdicts } from './scripted.js';

const correctable: ValidationError = { severity: 'correctable', message: 'missing a field' };

/** The pure decision table must agree with the machine: both are checked. */
function expectRoute(args: Parameters<typeof routeAfterValidation>[0], decision: string) {
  expectEqual('routeAfterValidation decision', routeAfterValidation(args).decision, decision);
}

async function terminatesWithPartial(build: BuildMachine, verdict: () => unknown) {
  const outcome = await runChecked(build, {
    attempt: () => 'draft',
    validate: verdict as () => never,
    maxRetries: 3,
  });
  expectEqual('status', outcome.status, 'terminate_with_partial');
  expectEqual('attempts', outcome.attempts, 1);
  expectEqual('partial', 'partial' in outcome ? outcome.partial : undefined, 'draft');
  return outcome;
}

/** The decision-table rows of SPEC §11, each run on the pure table and on a real machine. */
export const decisionChecks: BatteryCheck[] = [
  {
    name: 'valid → proceed',
    async run(build) {
      expectRoute({ isValid: true, retryCount: 0, maxRetries: 3 }, 'proceed');
      const outcome = await runChecked(build, { attempt: () => 'draft', validate: verdicts.valid });
      expectEqual('status', outcome.status, 'proceed');
      expectEqual('decisions', decisionsOf(outcome), ['proceed']);
      expectEqual('candidate', outcome.status === 'proceed' && outcome.candidate, 'draft');
      return `proceed after ${outcome.attempts} attempt`;
    },
  },
  {
    name: 'fundamental → terminate_with_partial',
    async run(build) {
      const error: ValidationError = { severity: 'fundamental', message: 'contradiction' };
      expectRoute(
        { isValid: false, error, retryCount: 0, maxRetries: 3 },
        'terminate_with_partial',
      );
      await terminatesWithPartial(build, () => verdicts.fundamental());
      return 'stopped at once with the partial, 3 retries unused';
    },
  },
  {
    name: 'correctable with budget → refine, count goes up',
    async run(build) {
      const route = routeAfterValidation({
        isValid: false,
        error: correctable,
        retryCount: 1,
        maxRetries: 3,
      });
      expectEqual('routeAfterValidation', [route.decision, route.retryCount], ['refine', 2]);
      const steps = stepCounter();
      const outcome = await runChecked(build, {
        attempt: ({ attempt }) => `draft ${attempt}`,
        validate: (_, { attempt }) =>
          attempt <= 2 ? verdicts.correctable(`gap ${attempt}`) : verdicts.valid(),
        refine: steps.count('refine', ({ input }) => input),
        maxRetries: 3,
      });
      const refines = outcome.trace.filter((entry) => entry.decision === 'refine');
      expectEqual(
        'retryCount after each refine',
        refines.map((e) => e.retryCount),
        [1, 2],
      );
      expectEqual('refine calls', steps.calls.refine, 2);
      expectEqual('status', outcome.status, 'proceed');
      return 'refine, refine (retryCount 1 → 2), then proceed';
    },
  },
  {
    name: 'correctable with budget spent → fallback',
    async run(build) {
      expectRoute({ isValid: false, error: correctable, retryCount: 2, maxRetries: 2 }, 'fallback');
      const steps = stepCounter();
      const outcome = await runChecked(build, {
        attempt: ({ attempt }) => `draft ${attempt}`,
        validate: (_, { attempt }) => verdicts.correctable(`gap ${attempt}`),
        fallback: steps.count('fallback', () => 'safe answer'),
        maxRetries: 2,
      });
      expectEqual('status', outcome.status, 'fallback');
      expectEqual('iterations', outcome.iterations, 2);
      expectEqual('fallback calls', steps.calls.fallback, 1);
      if (outcome.status === 'fallback') {
        expectEqual(
          '[candidate, partial]',
          [outcome.candidate, outcome.partial],
          ['safe answer', 'draft 3'],
        );
      }
      return 'fallback once after 2/2 refines, partial kept';
    },
  },
  {
    name: 'invalid with no error → terminate_with_partial',
    async run(build) {
      expectRoute({ isValid: false, retryCount: 0, maxRetries: 3 }, 'terminate_with_partial');
      expectRoute(
        { isValid: false, error: null, retryCount: 0, maxRetries: 3 },
        'terminate_with_partial',
      );
      await terminatesWithPartial(build, verdicts.undiagnosed);
      await terminatesWithPartial(build, () => ({ valid: false, error: null }));
      return 'no diagnostic, nothing to refine with';
    },
  },
  {
    name: 'becomes valid after N refines → proceed, iterations = N',
    async run(build) {
      for (const n of [0, 1, 2, 4]) {
        const outcome = await runChecked(build, {
          attempt: ({ attempt }) => `draft ${attempt}`,
          validate: (_, { attempt }) =>
            attempt > n ? verdicts.valid() : verdicts.correctable(`gap ${attempt}`),
          maxRetries: 5,
        });
        expectEqual(`status for N = ${n}`, outcome.status, 'proceed');
        expectEqual(`iterations for N = ${n}`, outcome.iterations, n);
        expectEqual(`attempts for N = ${n}`, outcome.attempts, n + 1);
      }
      return 'N = 0, 1, 2, 4';
    },
  },
];
