import {
  clarificationRequest,
  compileLoop,
  emptyResult,
  type LoopConfig,
  type LoopOutcome,
  permanentFailure,
  transientFailure,
  uncertainSideEffect,
  withCost,
} from 'loopchart';
import type { PathStep } from 'loopchart/analysis';
import { vi } from 'vitest';
import { createActor } from 'xstate';

type StepName = PathStep['step'];

/** What one scripted run did: calls per step, the cost it reported, its live time. */
export interface Observed {
  calls: Record<StepName, number>;
  cost: number;
  elapsedMs: number;
  /** `Date.now()` as the run started (the trace's clock). */
  startedAt: number;
  outcome: LoopOutcome<string>;
  /** Every ctx a step was given, in call order (budget included). */
  contexts: { step: StepName; ctx: Record<string, unknown> }[];
  /** The script did not match the calls the loop made (a step called out of order, or too often). */
  mismatch?: string;
}

const NEVER = new Promise<never>(() => {});

/**
 * Runs `options` with steps that play `path` call by call (on fake timers, started by the
 * caller): each call waits its `ms` (forever for `null`), then returns or throws as `outcome`
 * says, reporting `cost`. Past the end of the path a call fails permanently.
 */
export async function runScripted(
  options: Omit<LoopConfig<string, string>, 'attempt' | 'validate'>,
  path: readonly PathStep[] | Readonly<Record<StepName, readonly PathStep[]>>,
): Promise<Observed> {
  // a refused step and loopchart's stand-in refine are not calls of the script
  const script = Array.isArray(path)
    ? (path as readonly PathStep[]).filter(
        (move) => move.outcome !== 'refused' && (options.refine || move.step !== 'refine'),
      )
    : undefined;
  const perStep = Array.isArray(path) ? undefined : (path as Record<StepName, PathStep[]>);
  const calls = { attempt: 0, validate: 0, refine: 0, fallback: 0 };
  const contexts: Observed['contexts'] = [];
  let at = 0;
  let mismatch: string | undefined;
  let lastMessage = 'fix 0';
  let fresh = 0;
  const play = (step: StepName) => async (ctx: Record<string, unknown>) => {
    calls[step]++;
    contexts.push({ step, ctx });
    const move = perStep
      ? (perStep[step][calls[step] - 1] ?? { step, outcome: 'fatal', cost: 0, ms: 0 })
      : script?.[at++];
    if (move === undefined || move.step !== step) {
      mismatch ??= `call ${at} is ${step}, the path says ${move?.step ?? 'nothing'}`;
      throw permanentFailure('off the script');
    }
    if (move.ms === null) await NEVER;
    else if (move.ms > 0) await new Promise((resolve) => setTimeout(resolve, move.ms as number));
    const cost = move.cost;
    // beyond the certificate's outcomes, random runs also fail with effects that may have happened
    switch (move.outcome as PathStep['outcome'] | 'uncertain' | 'unknown effect') {
      case 'uncertain':
        throw uncertainSideEffect('it may have acted');
      case 'unknown effect':
        throw transientFailure('socket hang up', { effect: 'unknown' });
      case 'transient':
        throw transientFailure('busy', {
          effect: 'none',
          // the loop's own retryDelayMs is the wait when the failure asks for none
          ...(move.waitMs === undefined || move.waitMs === (options.retryDelayMs ?? 1000)
            ? {}
            : { retryAfterMs: move.waitMs }),
        });
      case 'fatal':
        throw permanentFailure('gone');
      case 'empty':
        return withCost(emptyResult('nothing'), cost);
      case 'ask':
        return withCost(clarificationRequest({ question: 'which?' }), cost);
      case 'valid':
        return withCost({ valid: true }, cost);
      case 'fundamental':
        return withCost({ valid: false, error: { severity: 'fundamental', message: 'no' } }, cost);
      case 'correctable':
        lastMessage = `fix ${++fresh}`;
        return withCost(
          { valid: false, error: { severity: 'correctable', message: lastMessage } },
          cost,
        );
      case 'same':
        return withCost(
          { valid: false, error: { severity: 'correctable', message: lastMessage } },
          cost,
        );
      default:
        return withCost(step === 'refine' ? `${String(ctx.input)}+` : 'draft', cost);
    }
  };
  const config: LoopConfig<string, string> = {
    ...options,
    attempt: play('attempt') as never,
    validate: ((_: unknown, ctx: Record<string, unknown>) =>
      play('validate')(ctx)) as unknown as LoopConfig<string, string>['validate'],
    ...(options.refine ? { refine: play('refine') as never } : {}),
    ...(options.fallback ? { fallback: play('fallback') as never } : {}),
  };
  // the chart of these settings is built once and shared, the run's steps in its input, as runLoop does
  const plan = compileLoop(config);
  const actor = createActor(plan.sharedChart, { input: { input: 'task', steps: plan.steps } });
  const started = performance.now();
  const startedAt = Date.now();
  let ended: number | undefined;
  actor.subscribe({ complete: () => (ended = performance.now()) });
  actor.start();
  for (let turn = 0; ended === undefined && turn < 10_000; turn++) {
    // a real macrotask: every promise chain settles first, so the clock moves only when all wait
    await new Promise((resolve) => setImmediate(resolve));
    const snapshot = actor.getSnapshot();
    if (snapshot.status !== 'active') continue;
    if (snapshot.hasTag('waitsForHuman')) {
      actor.send(
        snapshot.value === 'awaitingReview'
          ? { type: 'review.continue' }
          : { type: 'clarification.answer', answer: 'this one' },
      );
    } else vi.advanceTimersToNextTimer();
  }
  // a call the deadline cut off still has its timer: it must not move the next run's clock
  vi.clearAllTimers();
  if (ended === undefined) throw new Error('the scripted run did not end');
  const outcome = actor.getSnapshot().output as LoopOutcome<string>;
  return {
    calls,
    cost: outcome.cost,
    elapsedMs: ended - started,
    startedAt,
    outcome,
    contexts,
    ...(mismatch === undefined ? {} : { mismatch }),
  };
}
