import type { Actor, AnyStateMachine } from 'xstate';
import { createActor } from 'xstate';
import { compileLoop } from '../../core/chart/compileLoop.js';
import { GRACE_MS } from '../../core/chart/deadline.js';
import type { LoopConfig, LoopSettings } from '../../core/vocabulary/config.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { isOkStatus, LOOP_STATUSES } from '../../core/vocabulary/statuses.js';
import { runToEnd } from '../../runners/loop/runLoop.js';
import {
  type ExternalCall,
  type ExternalSteps,
  externalCalls,
  type Fc,
  missingExternal,
  playExternal,
} from './externalSteps.js';
import type { ArbitraryLike } from './loopSamples.js';
import { runClockUntil, SimulatedClock, settleOnClock } from './SimulatedClock.js';
import {
  type ExecutedStepCall,
  ignoredAbort,
  lastOpenAbort,
  watchStepCalls,
} from './watchStepCalls.js';

/** One executed run as your property sees it, besides its outcome and input. */
export interface ExecutedRun {
  /** How long the run took in simulated time (retry waits, latencies, deadlines), in ms. */
  elapsedMs: number;
  /** Each step call, in order: its step, its `ctx.input`, and when its signal aborted and it settled. */
  calls: readonly ExecutedStepCall[];
}

/** What executed mode generates, checks and how it replays. */
export interface LoopRunCheck<I, C> {
  /** Inputs to run the loop on: a fast-check arbitrary of the loop's `I`. */
  input: ArbitraryLike<I>;
  /**
   * The steps outside your code (a model call, HTTP), by step name: their calls are generated
   * (values, typed failures, latencies; verdicts for `validate`). The others run your code.
   */
  external?: ExternalSteps<I, C>;
  /** Your property of every run; throw (or return false) to fail it. */
  property?: (outcome: LoopOutcome<C>, input: I, run: ExecutedRun) => unknown;
  /**
   * Real ms a step of your code may take (real I/O) before simulated time moves past it, and may
   * take to wind down once its signal aborted (default 1000; 0 when your steps do no I/O).
   */
  realStepMs?: number;
  /** Runs to try (default 100). */
  numRuns?: number;
  /** Replays a failure: the `seed` and `path` its report printed. */
  seed?: number;
  path?: string;
}

/**
 * Executed mode: fast-check drives the real loop (your attempt, validate, refine and fallback)
 * on generated inputs, with generated calls of the steps you mark `external`, on simulated time
 * (retry waits, timeouts and the deadline take no real time). Every run is checked against
 * SPEC §3's bounds, the deadline (plus `GRACE_MS`), steps that go on after their signal aborted,
 * the input left unchanged, and your property. A failure is shrunk to the smallest input and
 * step calls; its report names the run's path and prints the seed and path to replay it.
 * @example await checkLoopRuns(config, { input: fc.record({ text: fc.string() }), property });
 */
export async function checkLoopRuns<I, C>(
  config: LoopConfig<I, C>,
  check: NoInfer<LoopRunCheck<I, C>>,
): Promise<void> {
  const fc = (await import('fast-check')) as unknown as Fc;
  const external = check.external as ExternalSteps<unknown, unknown> | undefined;
  const missing = missingExternal(external, config);
  if (missing)
    throw new Error(
      `checkLoopRuns: external.${missing} marks a step the config does not have; give the config its ${missing} (the loop has no route to it otherwise)`,
    );
  const plan = compileLoop(config);
  const { settings } = plan;
  const calls = externalCalls(fc, external, settings);
  const property = fc.asyncProperty(
    check.input,
    calls,
    async (input: I, generated: Partial<Record<StepName, ExternalCall[]>>) => {
      const clock = new SimulatedClock(Date.now());
      const started = clock.now();
      const log: ExecutedStepCall[] = [];
      const own = { ...plan.steps, clock };
      const steps = watchStepCalls(playExternal(own, generated, clock), clock, log);
      const given = JSON.stringify(input);
      const actor = createActor(plan.sharedChart, {
        input: { input, steps, startedAt: started },
      }) as unknown as Actor<AnyStateMachine>;
      // a call of your code in flight, not yet aborted: real work simulated time waits for
      const realInFlight = () =>
        log.some(
          (call) =>
            external?.[call.step] === undefined &&
            call.settledAt === undefined &&
            call.abortedAt === undefined,
        );
      const outcome = await settleOnClock(
        runToEnd<C>(actor, undefined),
        clock,
        realInFlight,
        check.realStepMs,
      );
      const elapsedMs = clock.now() - started;
      const open = lastOpenAbort(log);
      if (open !== undefined)
        await runClockUntil(
          clock,
          started + open + GRACE_MS,
          () => lastOpenAbort(log) !== undefined,
        );
      const fail = (problem: string) => {
        throw new Error(`${problem}\n  path: ${pathOf(outcome)}`);
      };
      if (JSON.stringify(input) !== given)
        fail(`a step changed the loop's input in place (now ${JSON.stringify(input)})`);
      const problem =
        boundsProblem(outcome, settings) ??
        deadlineProblem(outcome, elapsedMs, settings) ??
        ignoredAbort(log, GRACE_MS);
      if (problem) fail(problem);
      try {
        const run = { elapsedMs, calls: log };
        if ((await check.property?.(outcome, input, run)) === false)
          throw new Error('returned false');
      } catch (error) {
        fail(`the property failed: ${String(error)}`);
      }
    },
  );
  await fc.assert(property, {
    numRuns: check.numRuns ?? 100,
    includeErrorInReport: true,
    ...(check.seed === undefined ? {} : { seed: check.seed }),
    ...(check.path === undefined ? {} : { path: check.path }),
  });
}

/** SPEC §3's bounds and the outcome's own invariants: its `ok`, and a stop's `error` of its kind. */
function boundsProblem(outcome: LoopOutcome<unknown>, settings: LoopSettings) {
  if (!LOOP_STATUSES.includes(outcome.status))
    return `the run ended in no status (${outcome.status})`;
  if (outcome.attempts > settings.maxAttempts)
    return `${outcome.attempts} attempts passed maxAttempts`;
  if (outcome.iterations > settings.maxRetries)
    return `${outcome.iterations} refine cycles passed maxRetries`;
  if (outcome.ok !== isOkStatus(outcome.status))
    return `the outcome ${outcome.status} says ok: ${outcome.ok}`;
  const error = 'error' in outcome ? outcome.error : undefined;
  if (!outcome.ok && error?.kind !== outcome.status)
    return `the outcome ${outcome.status} carries no error of its kind (${error?.kind})`;
  return undefined;
}

/** SPEC §3: a live run ends by its deadline (the stop may take `GRACE_MS` more), and not before. */
function deadlineProblem(outcome: LoopOutcome<unknown>, elapsedMs: number, settings: LoopSettings) {
  const { deadlineMs } = settings;
  if (deadlineMs === null) return undefined;
  if (elapsedMs > deadlineMs + GRACE_MS)
    return `the run took ${elapsedMs} ms of simulated time, past deadlineMs (${deadlineMs} ms) and its ${GRACE_MS} ms grace`;
  const cap = 'error' in outcome ? outcome.error.cap : undefined;
  if (cap === 'deadlineMs' && elapsedMs < deadlineMs)
    return `the run stopped for its deadline after ${elapsedMs} ms of simulated time, before deadlineMs (${deadlineMs} ms)`;
  return undefined;
}

/** The run's path as its trace tells it: each step and decision, then the status. */
function pathOf(outcome: LoopOutcome<unknown>): string {
  const hops = outcome.trace.map((entry) => entry.decision ?? entry.state);
  return `${hops.join(' → ')} ⇒ ${outcome.status}`;
}
