import type { RunSteps } from '../../core/chart/stepActors.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import {
  type FailureKind,
  LoopStepFailure,
  type StepName,
} from '../../core/vocabulary/failures.js';
import type { ValidationResult } from '../../core/vocabulary/validation.js';
import type { ArbitraryLike } from './loopSamples.js';
import type { SimulatedClock } from './SimulatedClock.js';

/** A step outside your code (a model call, an HTTP request), as executed mode generates its calls. */
export interface ExternalStep<T> {
  /** What a call returns. */
  returns: ArbitraryLike<T>;
  /** The typed failures a call may throw instead (default `['transient', 'permanent']`; `[]`: none). */
  throws?: readonly FailureKind[];
  /** How long a call takes, in simulated ms (default mostly 0, else up to 1.5 × the step's time limit). */
  latencyMs?: ArbitraryLike<number>;
}

/** An external mark: the arbitrary of what a call returns, or the whole `ExternalStep`. */
export type ExternalMark<T> = ArbitraryLike<T> | ExternalStep<T>;

/**
 * The steps to generate, by name; the others run your code. `validate: true` generates verdicts
 * of every kind (valid, correctable, fundamental, no diagnostic, malformed).
 */
export interface ExternalSteps<I, C> {
  attempt?: ExternalMark<C>;
  validate?: true | ExternalMark<ValidationResult>;
  refine?: ExternalMark<I>;
  fallback?: ExternalMark<C>;
}

/** One generated call of an external step: what it answers, after how long. */
export interface ExternalCall {
  answer: { value: unknown } | { throws: FailureKind };
  ms: number;
}

type Arb = { map(fn: (value: never) => unknown): Arb };
/** The parts of fast-check executed mode uses (the user's own copy, imported when it runs). */
export interface Fc {
  assert(property: unknown, options: Record<string, unknown>): Promise<void>;
  asyncProperty(...args: unknown[]): unknown;
  array(arbitrary: unknown, options: { minLength: number; maxLength: number }): Arb;
  record(shape: Record<string, unknown>): Arb;
  oneof(...arbitraries: unknown[]): Arb;
  constant(value: unknown): Arb;
  constantFrom(...values: unknown[]): Arb;
  integer(range: { min: number; max: number }): Arb;
}

const GENERATED_VERDICTS: ValidationResult[] = [
  { valid: true },
  { valid: false, error: { severity: 'correctable', message: 'a generated correctable error' } },
  { valid: false, error: { severity: 'fundamental', message: 'a generated fundamental error' } },
  { valid: false },
  { valid: 'maybe' } as unknown as ValidationResult,
];

const STEPS: readonly StepName[] = ['attempt', 'validate', 'refine', 'fallback'];

/** The external steps' calls, as one fast-check record of arrays (one per marked step). */
export function externalCalls(
  fc: Fc,
  external: ExternalSteps<unknown, unknown> | undefined,
  settings: LoopSettings,
): Arb {
  const shape: Record<string, unknown> = {};
  // no step is called more often than the attempts and refine cycles allow, plus a retry each
  const maxLength = settings.maxAttempts + settings.maxRetries + 2;
  for (const step of STEPS) {
    const mark = external?.[step];
    if (mark === undefined) continue;
    const given = stepOf(fc, mark);
    const values = given.returns as unknown as Arb;
    const throws = given.throws ?? ['transient', 'permanent'];
    // mostly answers at once; a quarter of the calls fail, or take up to past their limit
    const value = values.map((value) => ({ value }));
    const answer =
      throws.length === 0
        ? value
        : fc.oneof(
            { arbitrary: value, weight: 3 },
            { arbitrary: fc.constantFrom(...throws).map((kind) => ({ throws: kind })), weight: 1 },
          );
    const ms =
      given.latencyMs ??
      fc.oneof(
        { arbitrary: fc.constant(0), weight: 3 },
        { arbitrary: fc.integer(latencyRange(step, settings)), weight: 1 },
      );
    shape[step] = fc.array(fc.record({ answer, ms }), { minLength: 1, maxLength });
  }
  return fc.record(shape);
}

function stepOf(fc: Fc, mark: true | ExternalMark<unknown>): ExternalStep<unknown> {
  if (mark === true) return { returns: fc.constantFrom(...GENERATED_VERDICTS) as never };
  return 'returns' in mark ? mark : { returns: mark };
}

/** Latencies from 0 to past the step's own limit, so timeouts and the deadline can fire. */
function latencyRange(step: StepName, settings: LoopSettings) {
  const timeout = step === 'attempt' ? settings.attemptTimeoutMs : settings.stepTimeoutMs;
  const limits = [timeout, settings.deadlineMs].filter((ms): ms is number => ms !== null);
  return { min: 0, max: Math.ceil(1.5 * (limits.length ? Math.min(...limits) : 1000)) };
}

/**
 * Whether `external` marks the fallback of a config without one: such a loop has no route to it
 * (a loop without `refine` still refines, with loopchart's stand-in, which an external mark replaces).
 */
export function missingExternal(
  external: ExternalSteps<unknown, unknown> | undefined,
  config: { fallback?: unknown },
): StepName | undefined {
  return external?.fallback !== undefined && !config.fallback ? 'fallback' : undefined;
}

/**
 * The run's steps with the external ones played from their generated calls on `clock`: each
 * call answers (or throws its typed failure) after its latency, and settles at once when its
 * signal aborts, as a well-behaved client does.
 */
export function playExternal(
  steps: RunSteps,
  generated: Partial<Record<StepName, ExternalCall[]>>,
  clock: SimulatedClock,
): RunSteps {
  const played = { ...steps };
  for (const step of STEPS) {
    const calls = generated[step];
    if (calls) played[step] = player(step, calls, clock);
  }
  return played;
}

function player(step: StepName, calls: ExternalCall[], clock: SimulatedClock) {
  let made = 0;
  return (ctx: Record<string, unknown>): unknown => {
    const number = made;
    const call = calls[Math.min(made++, calls.length - 1)] as ExternalCall;
    const answer = () => {
      if ('value' in call.answer) return call.answer.value;
      const message = `the generated ${call.answer.throws} failure of ${step} call ${number + 1}`;
      throw new LoopStepFailure(call.answer.throws, message, {
        effect: call.answer.throws === 'uncertain' ? 'unknown' : 'none',
      });
    };
    if (call.ms === 0) return answer();
    const signal = ctx.signal as AbortSignal;
    return new Promise((resolve, reject) => {
      const cancel = clock.after(call.ms, () => {
        signal.removeEventListener('abort', stop);
        try {
          resolve(answer());
        } catch (error) {
          reject(error);
        }
      });
      function stop() {
        cancel();
        reject(signal.reason);
      }
      signal.addEventListener('abort', stop, { once: true });
    });
  };
}
