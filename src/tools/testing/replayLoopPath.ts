import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromPromise,
} from 'xstate';
import { STEP_STATE } from '../../core/chart/loopContext.js';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import type { StepName } from '../../core/vocabulary/failures.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { LOOP_STATUSES, type LoopStatus } from '../../core/vocabulary/statuses.js';
import { LoopPathMismatchError } from './LoopPathMismatchError.js';
import { comparable, type DryRun, STEP_ACTORS, transitionRecorder } from './takenTransitions.js';

/** What a replay observed: the real run's outcome and the transitions it took. */
export interface LoopReplay<C = unknown> {
  outcome: LoopOutcome<C>;
  /** `transitionId`s in the order the run took them. */
  transitions: string[];
  /** The events the replay fed the machine, your values and your steps' outputs in them. */
  events: EventObject[];
}

export interface ReplayPlan {
  machine: AnyStateMachine;
  input: unknown;
  description: string;
  status: LoopStatus;
  events: readonly EventObject[];
  /** The same events sent straight to the machine: what the real run must match. */
  expected: () => DryRun;
  /** Called on the state after each event (`index` 0 is the first event's). */
  onStep?: (index: number, snapshot: AnyMachineSnapshot) => unknown;
}

/** The state a loop settled in after one event of a path, as `onStep` sees it. */
export interface LoopPathStepState<I = unknown, C = unknown> {
  /** The index of the event in `path.steps`. */
  index: number;
  label: string;
  state: string;
  input: I;
  candidate: C | undefined;
  attempts: number;
  iterations: number;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const invokeIdOf = (type: string) => /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);

/**
 * Runs the real machine along a path: each invoked step is a promise the replay settles with the
 * path's scripted output or failure, each human event is sent as is. After every event the
 * snapshot (context and trace, timestamps aside) must equal the one the path's events give when
 * sent straight to the machine; at the end the run must hold SPEC §3's bounds, end in the path's
 * status and have taken the path's transitions. Any disagreement throws `LoopPathMismatchError`.
 */
export async function replayLoopPath<C>(plan: ReplayPlan): Promise<LoopReplay<C>> {
  const { events, description } = plan;
  const expected = plan.expected();
  const mismatch = (step: number, problem: string) =>
    new LoopPathMismatchError(description, step, problem);
  const pending = new Map<
    string,
    { resolve(value: unknown): void; reject(error: unknown): void }
  >();
  const scripted = fromPromise<unknown, unknown>(
    ({ self, signal }) =>
      new Promise((resolve, reject) => {
        pending.set(self.id, { resolve, reject });
        signal.addEventListener('abort', () => pending.delete(self.id), { once: true });
      }),
  );
  const real = plan.machine.provide({
    actors: Object.fromEntries(STEP_ACTORS.map((name) => [name, scripted])),
  });
  const recorder = transitionRecorder(real);
  const actor = createActor(real, { input: { input: plan.input }, inspect: recorder.inspect });
  let crash: unknown;
  actor.subscribe({ error: (error) => (crash = error) });
  const visited: string[] = [];
  const expectAt = (index: number) => {
    if (crash !== undefined) throw mismatch(index, `the machine crashed: ${String(crash)}`);
    const snapshot = actor.getSnapshot();
    visited.push(String(snapshot.value));
    if (comparable(snapshot, index === events.length) !== expected.snapshots[index]) {
      throw mismatch(
        index,
        `the run is in ${show(snapshot)}, unlike the path's ${show(JSON.parse(expected.snapshots[index] ?? '{}'))}`,
      );
    }
  };
  actor.start();
  try {
    for (const [index, event] of events.entries()) {
      await settle();
      expectAt(index);
      if (index > 0) await plan.onStep?.(index - 1, actor.getSnapshot());
      const invoked = invokeIdOf(event.type);
      if (invoked) {
        const [, kind, id = ''] = invoked;
        const step = pending.get(id);
        if (!step) throw mismatch(index + 1, `the path settles "${id}", which is not running`);
        pending.delete(id);
        if (kind === 'done') step.resolve((event as { output?: unknown }).output);
        else step.reject((event as { error?: unknown }).error);
      } else {
        actor.send(event);
      }
    }
    await settle();
    expectAt(events.length);
    if (events.length > 0) await plan.onStep?.(events.length - 1, actor.getSnapshot());
    const snapshot = actor.getSnapshot();
    const problem = checkRun(snapshot, plan, visited);
    if (problem) throw mismatch(-1, problem);
    if (recorder.taken.join() !== expected.transitions.join()) {
      throw mismatch(
        -1,
        `the run took transitions ${recorder.taken.join(', ')}; the path takes ${expected.transitions.join(', ')}`,
      );
    }
    return {
      outcome: snapshot.output as LoopOutcome<C>,
      transitions: [...recorder.taken],
      events: [...events],
    };
  } finally {
    actor.stop();
  }
}

const show = (snapshot: Pick<AnyMachineSnapshot, 'value' | 'status' | 'context'>) => {
  const view = loopView(snapshot);
  return `${JSON.stringify(snapshot.value)} (${snapshot.status}, retryCount ${view?.iterations}, attempts ${view?.attempts}, ${view?.trace.length} trace entries)`;
};

/** SPEC §3's bounds and the path's own account of the run; a sentence per problem, or undefined. */
function checkRun(
  snapshot: AnyMachineSnapshot,
  plan: ReplayPlan,
  visited: string[],
): string | undefined {
  const view = loopView(snapshot) as LoopView;
  const { settings } = view;
  const outcome = snapshot.output as LoopOutcome | undefined;
  const types = plan.events.map((event) => event.type);
  const count = (step: string) =>
    types.filter(
      (type) => type === `xstate.done.actor.${step}` || type === `xstate.error.actor.${step}`,
    ).length;
  const cutShort = (state: string) =>
    plan.status === 'aborted' && visited.at(-2) === state ? 1 : 0;
  const problems: string[] = [];
  const expect = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  expect(snapshot.status === 'done', `the run did not terminate (status ${snapshot.status})`);
  expect(
    outcome !== undefined && LOOP_STATUSES.includes(outcome.status),
    'the outcome has no SPEC §3 status',
  );
  expect(
    outcome?.status === plan.status && snapshot.value === plan.status,
    `the run ended as ${outcome?.status}, the path in ${plan.status}`,
  );
  expect(
    view.attempts <= settings.maxAttempts,
    `${view.attempts} attempts passed maxAttempts ${settings.maxAttempts}`,
  );
  expect(
    view.iterations <= settings.maxRetries,
    `${view.iterations} refine cycles passed maxRetries ${settings.maxRetries}`,
  );
  expect(view.fallbackRuns <= 1, `the fallback ran ${view.fallbackRuns} times`);
  // an attempt maxCost's reservation refused was never called, so it is not counted
  const invoked = count('attempt') - refusals(plan.events, 'attempt');
  expect(
    view.attempts === invoked + cutShort('attempting'),
    `${view.attempts} attempts counted, the path invokes ${invoked}`,
  );
  expect(
    view.fallbackRuns === count('fallback') + cutShort('fallingBack'),
    `${view.fallbackRuns} fallback runs counted, the path has ${count('fallback')}`,
  );
  if (settings.trace) {
    const steps = view.trace.filter((entry) => !entry.decision).map((entry) => entry.state);
    const pathSteps = types.flatMap((type) => {
      const step = invokeIdOf(type)?.[2];
      return step && step in STEP_STATE ? [STEP_STATE[step as StepName]] : [];
    });
    expect(
      steps.join() === pathSteps.join(),
      `the trace's steps (${steps.join(', ')}) differ from the path's (${pathSteps.join(', ')})`,
    );
    const terminal = view.trace
      .map((entry) => entry.decision)
      .filter(
        (decision) => decision !== 'fallback' && LOOP_STATUSES.includes(decision as LoopStatus),
      );
    const want = plan.status === 'fallback' ? [] : [plan.status];
    expect(
      terminal.join() === want.join(),
      `the trace records terminal decisions [${terminal.join(', ')}]`,
    );
    const refines = view.trace.filter((entry) => entry.decision === 'refine').length;
    expect(
      refines === view.iterations,
      `the trace records ${refines} refine decisions for ${view.iterations} refine cycles`,
    );
  }
  return problems.length ? problems.join('; ') : undefined;
}

/** How many of `events` are maxCost's refusals of `step` (the kit's offer of a refused call). */
function refusals(events: readonly EventObject[], step: string): number {
  return events.filter(
    (event) =>
      event.type === `xstate.error.actor.${step}` &&
      (event as { error?: { budget?: unknown } }).error?.budget === true,
  ).length;
}
