import type { RunSteps } from '../../core/chart/stepActors.js';
import type { Clock } from '../../core/vocabulary/clock.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { readError, type StepName } from '../../core/vocabulary/failures.js';

/** One call of a step in an executed run: when its signal aborted, and when it settled. */
export interface ExecutedStepCall {
  step: StepName;
  /** The loop input the step was given (`ctx.input`). */
  input: unknown;
  /** When it was called, in simulated ms since the run began (as the times below). */
  startedAt: number;
  abortedAt?: number;
  abortReason?: string;
  settledAt?: number;
  /** Whether it settled by throwing (or rejecting). */
  threw?: boolean;
}

const STEPS: readonly StepName[] = ['attempt', 'validate', 'refine', 'fallback'];

/** The run's steps, each call recorded in `calls`: when its `ctx.signal` aborted, when it settled. */
export function watchStepCalls(steps: RunSteps, clock: Clock, calls: ExecutedStepCall[]): RunSteps {
  const started = clock.now();
  const since = () => clock.now() - started;
  const watched = { ...steps };
  for (const step of STEPS) {
    const run = steps[step];
    watched[step] = (ctx) => {
      const call: ExecutedStepCall = { step, input: ctx.input, startedAt: since() };
      calls.push(call);
      const signal = ctx.signal as AbortSignal;
      const onAbort = () => {
        if (call.settledAt !== undefined) return;
        call.abortedAt = since();
        call.abortReason = readError(signal.reason).message;
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      const settle = (threw: boolean) => {
        if (call.settledAt !== undefined) return;
        call.settledAt = since();
        if (threw) call.threw = true;
        signal.removeEventListener('abort', onAbort);
      };
      let result: unknown;
      try {
        result = run(ctx);
      } catch (error) {
        settle(true);
        throw error;
      }
      Promise.resolve(result).then(
        () => settle(false),
        () => settle(true),
      );
      return result;
    };
  }
  return watched;
}

/**
 * The first call that went on after its signal aborted: still running `graceMs` later, or
 * settled only after that. Said as a report line, or `undefined` when every call stopped in time.
 */
export function ignoredAbort(
  calls: readonly ExecutedStepCall[],
  graceMs: number,
): string | undefined {
  for (const call of calls) {
    if (call.abortedAt === undefined) continue;
    const late = call.settledAt === undefined ? undefined : call.settledAt - call.abortedAt;
    if (late !== undefined && late <= graceMs) continue;
    const after =
      late === undefined
        ? `was still running ${graceMs} ms later`
        : `settled only ${late} ms later (more than ${graceMs} ms)`;
    return `${call.step} ignored its abort signal: the signal aborted ${call.abortedAt} ms into the run (${call.abortReason}) and the step ${after}; ${call.step} was called with input ${describeValue(call.input, 200)}`;
  }
  return undefined;
}

/** When the last call still running had its signal aborted, if one did. */
export function lastOpenAbort(calls: readonly ExecutedStepCall[]): number | undefined {
  const open = calls.filter((call) => call.abortedAt !== undefined && call.settledAt === undefined);
  return open.length ? Math.max(...open.map((call) => call.abortedAt as number)) : undefined;
}
