import { fc, test } from '@fast-check/vitest';
import {
  clarificationRequest,
  createLoopMachine,
  emptyResult,
  LOOP_STATUSES,
  type LoopConfig,
  type LoopMachine,
  type LoopOutcome,
  type LoopStatus,
  OK_STATUSES,
  permanentFailure,
  policyRejection,
  resolveConfig,
  transientFailure,
  uncertainSideEffect,
  withCost,
} from 'loopchart';
import { describe, expect } from 'vitest';
import { createActor } from 'xstate';
import { specBounds } from './support/specBounds.js';

// Arbitrary step behaviours, arbitrary bounds: every run ends, within its bounds, with one SPEC §3
// status. A step call takes the next behaviour of its script; past the end it repeats the last.

const attemptBehaviours = [
  'draft',
  'same draft',
  'empty',
  'question',
  'costly draft',
  'policy',
  'permanent',
  'transient (effect none)',
  'transient (effect unknown)',
  'uncertain',
  'retryAfterMs too long',
  'untyped error',
  'thrown string',
  'never resolves',
] as const;
const verdictBehaviours = [
  'valid',
  'correctable',
  'same correctable',
  'fundamental',
  'no diagnostic',
  'garbage',
  'transient (effect none)',
  'untyped error',
] as const;
const stepBehaviours = [
  'ok',
  'policy',
  'transient (effect none)',
  'uncertain',
  'untyped error',
] as const;
const humanActions = [
  'continue',
  'retry',
  'modify input',
  'modify candidate',
  'abort',
  'answer',
] as const;

type Script<T> = readonly T[];
const next = <T>(script: Script<T>, call: number): T =>
  script[Math.min(call, script.length - 1)] as T;
const NEVER = new Promise<never>(() => {});

const fail = (behaviour: string) => {
  switch (behaviour) {
    case 'policy':
      return policyRejection('not allowed');
    case 'permanent':
      return permanentFailure('gone');
    case 'transient (effect none)':
      return transientFailure('429', { effect: 'none' });
    case 'transient (effect unknown)':
      return transientFailure('socket hang up');
    case 'uncertain':
      return uncertainSideEffect('may have sent it');
    case 'retryAfterMs too long':
      return transientFailure('503', { effect: 'none', retryAfterMs: 10_000 });
    case 'thrown string':
      return 'a bare string';
    default:
      return new Error('TypeError: cannot read properties of undefined');
  }
};

interface Scripts {
  attempt: Script<(typeof attemptBehaviours)[number]>;
  validate: Script<(typeof verdictBehaviours)[number]>;
  refine: Script<(typeof stepBehaviours)[number]>;
  fallback: Script<(typeof stepBehaviours)[number]>;
  garbage: unknown;
}

/** A config whose steps follow the scripts, counting the calls each step gets. */
function scripted(scripts: Scripts, options: Partial<LoopConfig<string, string>>) {
  const calls = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  const config: LoopConfig<string, string> = {
    ...options,
    attempt: async ({ attempt }) => {
      const behaviour = next(scripts.attempt, calls.attempt++);
      if (behaviour === 'draft') return `draft ${attempt}`;
      if (behaviour === 'same draft') return 'the same draft';
      if (behaviour === 'costly draft') return withCost(`draft ${attempt}`, 3);
      if (behaviour === 'empty') return emptyResult('nothing matched');
      if (behaviour === 'question') return clarificationRequest({ question: 'Which year?' });
      if (behaviour === 'never resolves') return NEVER;
      throw fail(behaviour);
    },
    validate: async (_candidate) => {
      const behaviour = next(scripts.validate, calls.validate++);
      if (behaviour === 'valid') return { valid: true };
      if (behaviour === 'correctable') {
        return {
          valid: false,
          error: { severity: 'correctable', message: `fix ${calls.validate}` },
        };
      }
      if (behaviour === 'same correctable') {
        return { valid: false, error: { severity: 'correctable', message: 'fix it' } };
      }
      if (behaviour === 'fundamental') {
        return { valid: false, error: { severity: 'fundamental', message: 'no' } };
      }
      if (behaviour === 'no diagnostic') return { valid: false };
      if (behaviour === 'garbage') return scripts.garbage as never;
      throw fail(behaviour);
    },
    refine: async ({ input }) => {
      const behaviour = next(scripts.refine, calls.refine++);
      if (behaviour === 'ok') return `${input}+`;
      throw fail(behaviour);
    },
    ...(options.fallback === undefined
      ? {}
      : {
          fallback: async () => {
            const behaviour = next(scripts.fallback, calls.fallback++);
            if (behaviour === 'ok') return 'template';
            throw fail(behaviour);
          },
        }),
  };
  return { config, calls };
}

/** Runs a loop to its end, answering each pause with the next action of the person's script. */
function runWithPerson(
  machine: LoopMachine<string, string>,
  humans: Script<(typeof humanActions)[number]>,
) {
  return new Promise<{ outcome: LoopOutcome<string>; pauses: number }>((resolve, reject) => {
    const actor = createActor(machine, { input: { input: 'task' } });
    let pauses = 0;
    const guard = setTimeout(() => {
      actor.stop();
      reject(
        new Error(
          `the run did not end within 5 s; it is in ${JSON.stringify(actor.getSnapshot().value)}`,
        ),
      );
    }, 5000);
    actor.subscribe({
      next: (snapshot) => {
        if (!snapshot.hasTag('waitsForHuman')) return;
        // Past its script the person lets the loop go on: a person who edits forever is not a bound.
        const action = humans[pauses++] ?? 'continue';
        setImmediate(() => {
          if (snapshot.value === 'awaitingClarification') {
            actor.send(
              action === 'abort'
                ? { type: 'loop.abort' }
                : { type: 'clarification.answer', answer: '2025' },
            );
          } else if (action === 'continue' || action === 'answer')
            actor.send({ type: 'review.continue' });
          else if (action === 'retry') actor.send({ type: 'review.retry', feedback: 'again' });
          else if (action === 'modify input')
            actor.send({ type: 'review.modify', input: 'new task' });
          else if (action === 'modify candidate')
            actor.send({ type: 'review.modify', candidate: 'edited' });
          else actor.send({ type: 'review.abort', reason: 'stop' });
        });
      },
      complete: () => {
        clearTimeout(guard);
        resolve({ outcome: actor.getSnapshot().output as LoopOutcome<string>, pauses });
      },
      error: (error) => {
        clearTimeout(guard);
        reject(error);
      },
    });
    actor.start();
  });
}

/** A script of behaviours where `usual` (the one that keeps a loop going) is as likely as all the rest. */
const scriptOf = <T extends string>(all: readonly T[], usual: T, maxLength: number) =>
  fc.array(
    fc.oneof(
      { arbitrary: fc.constant(usual), weight: all.length },
      { arbitrary: fc.constantFrom(...all), weight: all.length },
    ),
    { minLength: 1, maxLength },
  );

const scriptsArb = fc.record({
  attempt: scriptOf(attemptBehaviours, 'draft', 12),
  validate: scriptOf(verdictBehaviours, 'correctable', 12),
  refine: scriptOf(stepBehaviours, 'ok', 6),
  fallback: scriptOf(stepBehaviours, 'ok', 2),
  garbage: fc.oneof(
    fc.anything(),
    fc.constant({ valid: 'yes' }),
    fc.constant({ valid: false, error: { severity: 'minor' } }),
  ),
});

const optionsArb = fc.record(
  {
    maxRetries: fc.integer({ min: 0, max: 5 }),
    maxAttempts: fc.integer({ min: 1, max: 12 }),
    maxCost: fc.constantFrom(5, 10),
    fallback: fc.constant(() => 'unused: replaced by the script'),
    stall: fc.oneof(
      fc.constant(false as const),
      fc.record({
        after: fc.integer({ min: 2, max: 4 }),
        on: fc.constantFrom('candidate-and-verdict' as const, 'verdict' as const),
      }),
    ),
    idempotent: fc.oneof(
      fc.boolean(),
      fc.record({ attempt: fc.boolean(), validate: fc.boolean(), refine: fc.boolean() }),
    ),
    review: fc.record({ beforeProceed: fc.boolean(), afterFailedValidation: fc.boolean() }),
  },
  { requiredKeys: ['maxRetries'] },
);

/** SPEC §3's bounds, checked on one finished run. */
function expectWithinBounds(
  outcome: LoopOutcome<string>,
  config: LoopConfig<string, string>,
  calls: Record<string, number>,
) {
  const { maxAttempts, maxRetries } = specBounds(config);
  expect(resolveConfig(config)).toMatchObject({ maxAttempts, maxRetries });
  expect(LOOP_STATUSES).toContain(outcome.status);
  expect(outcome.ok).toBe((OK_STATUSES as readonly LoopStatus[]).includes(outcome.status));
  expect(outcome.ok || outcome.error?.kind === outcome.status).toBe(true);
  expect(outcome.attempts).toBeLessThanOrEqual(maxAttempts);
  expect(calls.attempt).toBe(outcome.attempts);
  expect(outcome.iterations).toBeLessThanOrEqual(maxRetries);
  expect(calls.fallback).toBeLessThanOrEqual(1);
  const terminal = outcome.trace
    .map((entry) => entry.decision)
    .filter(
      (decision) => decision !== 'fallback' && LOOP_STATUSES.includes(decision as LoopStatus),
    );
  expect(terminal).toEqual(outcome.status === 'fallback' ? [] : [outcome.status]);
}

// No real waiting: retries are immediate, a hung attempt times out at once, and a failure asking
// for a 10 s delay is "too long" (it ends the run as retry_exhausted instead of waiting).
const timing = { retryDelayMs: 0, attemptTimeoutMs: 1, maxRetryDelayMs: 100 };

describe('every run ends within its bounds (property)', () => {
  test.prop([scriptsArb, optionsArb], { numRuns: 500 })(
    'arbitrary step behaviours, no person involved',
    async (scripts, { review: _review, ...options }) => {
      const unattended = {
        ...scripts,
        attempt: scripts.attempt.map((behaviour) =>
          behaviour === 'question' ? 'draft' : behaviour,
        ),
      };
      const { config, calls } = scripted(unattended, {
        ...options,
        ...timing,
      });
      const { outcome, pauses } = await runWithPerson(createLoopMachine(config), ['abort']);
      expect(pauses).toBe(0);
      expectWithinBounds(outcome, config, calls);
    },
  );

  test.prop(
    [
      scriptsArb,
      optionsArb,
      fc.array(fc.constantFrom(...humanActions), { minLength: 1, maxLength: 6 }),
    ],
    { numRuns: 500 },
  )(
    'arbitrary step behaviours with a person answering questions and reviews',
    async (scripts, options, humans) => {
      const { config, calls } = scripted(scripts, {
        ...options,
        ...timing,
      });
      const { outcome } = await runWithPerson(createLoopMachine(config), humans);
      expectWithinBounds(outcome, config, calls);
    },
  );
});
