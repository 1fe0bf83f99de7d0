import { fc } from '@fast-check/vitest';
import {
  ABORT_REASONS,
  FORGED_FAILURE_TAGS,
  FORGED_RESULT_TAGS,
  OPTIONS_TAGS,
  QUESTION_TAGS,
  type QuestionTag,
} from './forgedValues.js';
import {
  CANDIDATE_TAGS,
  type CandidateTag,
  COSTLY_CANDIDATE_TAGS,
  THROWN_TAGS,
} from './hostileValues.js';
import { VERDICT_TAGS, type VerdictTag } from './hostileVerdicts.js';
import type { Behaviour, CostSpec, Scenario, StepName, Thrown, ValueSpec } from './Scenario.js';

const CHEAP_CANDIDATE_TAGS = CANDIDATE_TAGS.filter(
  (tag) => !(COSTLY_CANDIDATE_TAGS as readonly string[]).includes(tag),
);
const texts = fc.oneof(fc.constantFrom('draft', ' Draft ', 'final answer'), fc.string());
const messages = fc.oneof(
  fc.constantFrom('fix the date', 'Fix  the date', 'no total'),
  fc.string(),
);
const json = fc.jsonValue({ maxDepth: 3 });
const candidateValue = fc.record({
  kind: fc.constant('candidate' as const),
  tag: fc.oneof(
    { arbitrary: fc.constantFrom<CandidateTag>('text', 'json'), weight: 30 },
    { arbitrary: fc.constantFrom(...CHEAP_CANDIDATE_TAGS), weight: 20 },
    { arbitrary: fc.constantFrom(...COSTLY_CANDIDATE_TAGS), weight: 1 },
  ),
  text: texts,
  json,
});
const forgedValue = fc.record({
  kind: fc.constant('forged' as const),
  tag: fc.constantFrom(...FORGED_RESULT_TAGS),
  text: texts,
});
const clarificationValue = fc.record(
  {
    kind: fc.constant('clarification' as const),
    question: fc.string(),
    questionTag: fc.oneof(
      { arbitrary: fc.constant<QuestionTag>('text'), weight: 3 },
      { arbitrary: fc.constantFrom(...QUESTION_TAGS), weight: 1 },
    ),
    options: fc.oneof(
      { arbitrary: fc.array(fc.string(), { maxLength: 3 }), weight: 3 },
      { arbitrary: fc.constantFrom(...OPTIONS_TAGS), weight: 1 },
    ),
  },
  { requiredKeys: ['kind', 'question', 'questionTag'] },
);
const attemptValue: fc.Arbitrary<ValueSpec> = fc.oneof(
  { arbitrary: candidateValue, weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant('empty' as const), reason: fc.string() }), weight: 1 },
  { arbitrary: clarificationValue, weight: 1 },
  { arbitrary: forgedValue, weight: 1 },
);
/**
 * What refine and fallback return: candidates, and now and then a forged step result of any kind
 * (only an attempt's empty or clarification result means anything; elsewhere it is a plain value
 * and must reach the outcome by identity).
 */
const refinedValue: fc.Arbitrary<ValueSpec> = fc.oneof(
  { arbitrary: candidateValue, weight: 14 },
  {
    arbitrary: fc.record({
      kind: fc.constant('forged' as const),
      tag: fc.constantFrom(...FORGED_RESULT_TAGS),
      text: texts,
    }),
    weight: 1,
  },
);
const verdictValue: fc.Arbitrary<ValueSpec> = fc.record({
  kind: fc.constant('verdict' as const),
  tag: fc.oneof(
    { arbitrary: fc.constantFrom<VerdictTag>('valid', 'correctable', 'fundamental'), weight: 6 },
    { arbitrary: fc.constantFrom(...VERDICT_TAGS), weight: 4 },
  ),
  message: messages,
  garbage: fc.anything({ maxDepth: 2 }),
});
/** A validator that keeps finding new correctable problems: drives loops to the ceilings and the fallback. */
const stubbornVerdict: fc.Arbitrary<ValueSpec> = fc.record({
  kind: fc.constant('verdict' as const),
  tag: fc.constant('correctable' as const),
  message: messages,
  garbage: fc.constant(null),
});
const cost: fc.Arbitrary<CostSpec> = fc.oneof(
  { arbitrary: fc.constant('none' as const), weight: 8 },
  { arbitrary: fc.double({ min: 0, max: 20, noNaN: true }), weight: 3 },
  { arbitrary: fc.constant('max' as const), weight: 1 },
  { arbitrary: fc.constantFrom('NaN', 'negative', 'Infinity', '-Infinity', 'string'), weight: 1 },
);
const retryAfterMs = fc.constantFrom(undefined, 0, 1, 3, Number.NaN, -1, Infinity, 1e9);

function behaviour(value: fc.Arbitrary<ValueSpec>): fc.Arbitrary<Behaviour> {
  const thrown = fc.oneof(
    { arbitrary: fc.constantFrom<Thrown>(...THROWN_TAGS), weight: 4 },
    { arbitrary: fc.constantFrom<Thrown>(...FORGED_FAILURE_TAGS), weight: 1 },
  );
  return fc.oneof(
    {
      arbitrary: fc.record({ how: fc.constantFrom('return', 'resolve'), value, cost }),
      weight: 14,
    },
    {
      arbitrary: fc.record({ how: fc.constantFrom('throw', 'reject'), thrown, retryAfterMs }),
      weight: 5,
    },
    {
      arbitrary: fc.record({
        how: fc.constant('late'),
        ms: fc.integer({ min: 0, max: 6 }),
        value,
        cost,
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        how: fc.constant('lateReject'),
        ms: fc.integer({ min: 0, max: 6 }),
        thrown,
      }),
      weight: 1,
    },
    { arbitrary: fc.constantFrom<Behaviour>({ how: 'hang' }, { how: 'honourSignal' }), weight: 1 },
  );
}

const script = (value: fc.Arbitrary<ValueSpec>) =>
  fc.array(behaviour(value), { minLength: 1, maxLength: 5 });
const flag = fc.boolean();

/** Any loop config in range, with step scripts that mix honest, garbage and hostile behaviour. */
export const scenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({
    input: fc.record({
      tag: fc.constantFrom<CandidateTag>(
        'text',
        'json',
        'text',
        'json',
        'protoKeyed',
        'cyclic',
        'proxy',
        'deep',
      ),
      text: texts,
      json,
    }),
    maxRetries: fc.integer({ min: 0, max: 5 }),
    maxAttempts: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    maxCost: fc.option(fc.double({ min: 0.5, max: 40, noNaN: true }), { nil: undefined }),
    hasRefine: flag,
    hasFallback: flag,
    idempotent: fc.oneof(
      flag,
      fc.record(
        { attempt: flag, validate: flag, refine: flag, fallback: flag },
        { requiredKeys: [] },
      ),
    ),
    stall: fc.oneof(
      fc.constant(undefined),
      fc.constant(false as const),
      fc.record({
        after: fc.integer({ min: 2, max: 4 }),
        on: fc.constantFrom('candidate-and-verdict' as const, 'verdict' as const),
      }),
    ),
    trace: fc.option(flag, { nil: undefined }),
    review: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 6 },
      { arbitrary: fc.record({ beforeProceed: flag, afterFailedValidation: flag }), weight: 1 },
    ),
    attemptTimeoutMs: fc.option(fc.integer({ min: 3, max: 12 }), { nil: undefined }),
    stepTimeoutMs: fc.option(fc.integer({ min: 3, max: 12 }), { nil: undefined }),
    classifier: fc.constantFrom(
      'none',
      'none',
      'throws',
      'garbage',
      'alwaysTransient',
      'undefined',
    ),
    abort: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      {
        arbitrary: fc.record({
          afterMs: fc.integer({ min: -1, max: 6 }),
          reason: fc.constantFrom(...ABORT_REASONS),
        }),
        weight: 1,
      },
    ),
    steps: fc.record({
      attempt: script(attemptValue),
      validate: fc.oneof(script(verdictValue), script(stubbornVerdict)),
      refine: script(refinedValue),
      fallback: script(refinedValue),
    }),
  })
  .map(boundWaits);

/**
 * A step that never settles ends only through a bound: the attempt through `attemptTimeoutMs`,
 * the other steps through `stepTimeoutMs` (which defaults to `attemptTimeoutMs`). A clarification
 * and a review wait for a person, whom no timeout bounds: those loops get the caller's abort.
 */
function boundWaits(scenario: Scenario): Scenario {
  const waits = (step: StepName) =>
    scenario.steps[step].some((b) => b.how === 'hang' || b.how === 'honourSignal');
  const asks = scenario.steps.attempt.some(
    (b) =>
      'value' in b &&
      (b.value.kind === 'clarification' ||
        (b.value.kind === 'forged' && b.value.tag.startsWith('clarification'))),
  );
  const attemptTimeoutMs = waits('attempt')
    ? (scenario.attemptTimeoutMs ?? 5)
    : scenario.attemptTimeoutMs;
  const otherStepsWait = waits('validate') || waits('refine') || waits('fallback');
  const stepTimeoutMs =
    otherStepsWait && attemptTimeoutMs === undefined
      ? (scenario.stepTimeoutMs ?? 5)
      : scenario.stepTimeoutMs;
  const reviews = scenario.review?.beforeProceed || scenario.review?.afterFailedValidation;
  const abort =
    (asks || reviews) && scenario.abort === undefined
      ? { afterMs: 3, reason: 'string' as const }
      : scenario.abort;
  return { ...scenario, attemptTimeoutMs, stepTimeoutMs, abort };
}

/** The resolved hard ceiling of a scenario (SPEC §4 default: 2 × (maxRetries + 1), at most 100). */
export function maxAttemptsOf(scenario: Scenario): number {
  return scenario.maxAttempts ?? Math.min(100, 2 * (scenario.maxRetries + 1));
}
