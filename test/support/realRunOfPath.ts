import { createActor, type EventObject } from 'xstate';
import { compileLoop, type LoopConfig, type LoopOutcome } from '../../src/entries/index.js';
import { SimulatedClock } from '../../src/tools/testing/SimulatedClock.js';

type Ctx = Readonly<Record<string, unknown>>;
type UserStep = (ctx: Ctx) => unknown;

/** What a real run along a path's events saw: each real step's ctx, in order, and its outcome. */
export interface RealRun {
  calls: Array<{ step: string; ctx: string }>;
  outcome: LoopOutcome;
}

/** A step's ctx as the comparison reads it: JSON, the live `signal` and the time left aside. */
export function ctxText(ctx: Ctx): string {
  const { signal: _signal, budget, ...rest } = ctx;
  // the time left is read off the clock at the call: equal only to the millisecond by chance
  const { timeLeftMs: _left, ...kept } = (budget ?? {}) as Record<string, unknown>;
  return JSON.stringify({ ...rest, budget: kept });
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits (a bounded number of turns of the event loop) until `ready` holds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1000; turn += 1) {
    if (ready()) return;
    await settle();
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * Runs the loop of `config` for real (its plan's chart: the step actors build every ctx)
 * along the events a path replay fed: the attempt answers with the path's output, a step the path
 * throws from throws the path's failure, `validate`, `refine` and `fallback` run the user's own
 * functions, and human events are sent once the run waits for them. No step runs before the
 * path's event for it, so each real step's ctx is the one a production run gives it. Time is
 * simulated: the retry wait ends at the path's event for it.
 */
export async function realRunOfPath(
  config: LoopConfig<unknown, unknown>,
  input: unknown,
  events: readonly EventObject[],
  /** The state the path is in before each event. */
  before: readonly string[],
): Promise<RealRun> {
  const calls: RealRun['calls'] = [];
  const waiting = new Map<string, (event: EventObject) => void>();
  const scripted =
    (step: string, user?: UserStep) =>
    async (ctx: Ctx): Promise<unknown> => {
      const event = await new Promise<EventObject>((resolve) => waiting.set(step, resolve));
      if (event.type.startsWith('xstate.error.actor.')) throw (event as { error?: unknown }).error;
      if (!user) return (event as { output?: unknown }).output;
      calls.push({ step, ctx: ctxText(ctx) });
      return user(ctx);
    };
  const validate = config.validate as unknown as (candidate: unknown, ctx: Ctx) => unknown;
  const plan = compileLoop({
    ...config,
    attempt: scripted('attempt'),
    validate: (_candidate: unknown, ctx: Ctx) =>
      scripted('validate', (c) => validate(c.candidate, c))(ctx),
    refine: scripted('refine', (config.refine ?? ((c: Ctx) => c.input)) as unknown as UserStep),
    ...(config.fallback
      ? { fallback: scripted('fallback', config.fallback as unknown as UserStep) }
      : {}),
  } as unknown as LoopConfig<unknown, unknown>);
  // the run's time is the test's: a retry wait ends when the path's event for it comes, not
  // when a wall-clock timer happens to fire (a 0 ms wait could end before an abort meant for it)
  const clock = new SimulatedClock(Date.now());
  const actor = createActor(plan.sharedChart, {
    input: { input, steps: { ...plan.steps, clock }, startedAt: clock.now() },
  });
  actor.start();
  try {
    for (const [index, event] of events.entries()) {
      const state = before[index];
      const there = () => actor.getSnapshot().value === state;
      const step = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type)?.[1];
      if (step === 'retryDelay') {
        await until(() => there() && clock.nextAt() !== undefined, `the retry wait in ${state}`);
        clock.fireNext();
      } else if (step) {
        await until(() => there() && waiting.has(step), `the ${step} step in ${state}`);
        const release = waiting.get(step);
        waiting.delete(step);
        release?.(event);
      } else {
        await until(there, `${state} before ${event.type}`);
        actor.send(event as Parameters<typeof actor.send>[0]);
      }
      await settle();
    }
    await until(() => actor.getSnapshot().status === 'done', 'the end of the run');
    return { calls, outcome: actor.getSnapshot().output as LoopOutcome };
  } finally {
    actor.stop();
  }
}
