import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { LoopMachine } from '../../core/chart/loopMachine.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import { LoopPathUnrealisableError } from './LoopPathUnrealisableError.js';
import { type LoopPathVerdict, verdictOf } from './loopPathVerdict.js';
import type { LoopSamples } from './loopSamples.js';
import { createLoopStateKey } from './loopStateKey.js';
import type { RealSteps } from './realiseLoopPath.js';
import { type LoopPathStepState, type LoopReplay, replayLoopPath } from './replayLoopPath.js';
import { replayWithSamples, stepHook, userHook } from './replayWithSamples.js';
import { labelOf } from './scriptedEvents.js';
import { stepEvents } from './stepEvents.js';
import { type DryRun, dryRun } from './takenTransitions.js';

/** How to enumerate a loop's paths, and what each replay feeds, runs and checks. */
export interface LoopPathBaseOptions<I = unknown, C = unknown> {
  /** The loop's first input. Default `{ task: 'summarise the memo' }`. */
  input?: I;
  /** `'shortest'` (default): one shortest path per reachable end; `'simple'`: every simple path. */
  paths?: 'shortest' | 'simple';
  /**
   * Optional excursions one path may take (transient retries, clarifications, review retries and
   * edits). Default 1. The first refine cycle may ask any number of questions, so the attempt
   * ceiling is always reachable.
   */
  detours?: number;
  /** Give up after visiting this many snapshots (default 200,000): a guard, not a tuning knob. */
  limit?: number;
  /**
   * Offer every way of ending a run (each failure kind, empty, fundamental…) in every refine
   * cycle. Default false: the first two cycles and the last offer them, the middle ones only
   * progress, so the number of paths grows linearly with `maxRetries` and stays small.
   */
  everyCycle?: boolean;
  /** The candidate the scripted attempt returns on attempt `n` when no `samples` are given. Default `` `draft ${n}` ``. */
  candidate?: (attempt: number) => unknown;
  /**
   * The values the paths feed, typed as the loop's `I` and `C`. With samples, loopchart feeds only
   * values you gave: a path that needs a sample you did not give is `skipped` and its replay fails
   * saying which. Requires `input`.
   */
  samples?: LoopSamples<I, C>;
  /**
   * Your real `validate`, `refine`, `fallback` and `classifyFailure` (pass the loop's config) to run
   * on the samples instead of scripting them; the attempt stays scripted. A step you leave out is
   * scripted, except `refine`, which then keeps the input as a loop without one does.
   */
  realSteps?: RealSteps<I, C>;
  /** How long a real step may take before its replay fails (default 5000 ms). */
  realStepTimeoutMs?: number;
  /** Runs after every event of every replay, on the state the loop settled in. */
  onStep?: (step: LoopPathStepState<I, C>, path: LoopPath<C>) => unknown;
  /** Runs on the outcome of every replay: "my handler copes with every way this loop ends". */
  onOutcome?: (outcome: LoopOutcome<C>, path: LoopPath<C>) => unknown;
}

/** One event of a path, and where it left the loop. */
export interface LoopPathStep {
  /** What happened, e.g. `'validate: correctable'` or `'attempt: transient (effect none)'`. */
  label: string;
  /** The event fed to the machine: a `xstate.done.actor.*` / `xstate.error.actor.*` or human event. */
  event: { type: string; [key: string]: unknown };
  /** The state the loop settled in after it. */
  state: string;
}

/** One complete run of a loop from start to a terminal status. */
export interface LoopPath<C = unknown> {
  /** `attempt → correctable → refine → attempt → valid ⇒ proceed`: a readable test name. */
  description: string;
  /** The terminal status the path ends in. */
  status: LoopStatus;
  steps: LoopPathStep[];
  /** The `transitionId`s the path takes (computed on first use). */
  readonly transitions: string[];
  /** With `samples`: why the path cannot be replayed (the samples it needs and lacks), else undefined. */
  readonly skipped: string | undefined;
  /**
   * Runs the real machine along the path with scripted steps; throws `LoopPathMismatchError` on
   * any disagreement, `LoopPathUnrealisableError` when your steps cannot take the path.
   */
  replay(): Promise<LoopReplay<C>>;
  /**
   * Replays the path and says what it found: resolves `passed` or `unrealisable` (with the
   * reason), rejects with the `LoopPathMismatchError` of a failure, so `it(name, () => path.test())`
   * fails only on a real disagreement.
   */
  test(): Promise<LoopPathVerdict<C>>;
  /** The verdict of the last `test()` or `replay()`, undefined before either ran. */
  readonly verdict: LoopPathVerdict<C> | undefined;
}

/** Options with samples: the loop's first input is required (loopchart invents no `I`). */
export type WithSamples<I, C> = LoopPathBaseOptions<I, C> & {
  samples: LoopSamples<I, C>;
  input: I;
};
/** Options without samples; real steps still need the loop's first input. */
export type WithoutSamples<I, C> = LoopPathBaseOptions<I, C> & { samples?: undefined } & (
    | { realSteps?: undefined }
    | { realSteps: RealSteps<I, C>; input: I }
  );
/** `getLoopPaths`'s options: `samples` and `realSteps` each need `input`. */
export type LoopPathOptions<I = unknown, C = unknown> = WithSamples<I, C> | WithoutSamples<I, C>;

/**
 * Enumerates the transition paths of a loop machine with `xstate/graph`, feeding realistic
 * done/error events for each invoked step and the human events of paused loops, each path ending
 * in a terminal status. With `samples` (and `realSteps`), a replay feeds your values and runs your
 * steps, so its outcome is typed as your candidate type.
 * @example for (const path of getLoopPaths(createLoopMachine(config))) {
 *            it(path.description, () => path.replay());
 *          }
 */
export function getLoopPaths<I, C>(
  machine: LoopMachine<I, C>,
  options: NoInfer<WithSamples<I, C>>,
): LoopPath<C>[];
export function getLoopPaths<I, C>(
  machine: LoopMachine<I, C>,
  options?: NoInfer<WithoutSamples<I, C>>,
): LoopPath<unknown>[];
export function getLoopPaths<I, C>(
  machine: LoopMachine<I, C>,
  options?: NoInfer<LoopPathOptions<I, C>>,
): LoopPath<unknown>[];
export function getLoopPaths<I, C>(
  machine: LoopMachine<I, C>,
  options: LoopPathOptions<I, C> = {},
): LoopPath<C>[] {
  const logic = machine as unknown as AnyStateMachine;
  if ((options.samples || options.realSteps) && !('input' in options)) {
    throw new LoopConfigError(
      "input: getLoopPaths with samples or realSteps needs the loop's first input (loopchart invents no value of your input type)",
      [],
    );
  }
  const input = 'input' in options ? options.input : { task: 'summarise the memo' };
  const policy = {
    detours: options.detours ?? 1,
    canStall: 'stalled' in logic.root.states,
    everyCycle: options.everyCycle ?? false,
    candidate: options.candidate ?? ((attempt: number) => `draft ${attempt}`),
  };
  const { serializeState, detoursOf } = createLoopStateKey(policy);
  const traversal = {
    input: { input },
    events: (snapshot: AnyMachineSnapshot) => stepEvents(snapshot, detoursOf(snapshot), policy),
    serializeState,
    toState: (snapshot: AnyMachineSnapshot) => snapshot.status === 'done',
    limit: options.limit ?? 200_000,
  };
  const enumerate = options.paths === 'simple' ? getSimplePaths : getShortestPaths;
  const found = enumerate(
    logic,
    traversal as Parameters<typeof getShortestPaths<AnyStateMachine>>[1],
  );
  return found.map((path) => toLoopPath<I, C>(logic, input, path.steps, options));
}

function toLoopPath<I, C>(
  machine: AnyStateMachine,
  input: unknown,
  steps: ReadonlyArray<{ event: { type: string }; state: AnyMachineSnapshot }>,
  options: LoopPathOptions<I, C>,
): LoopPath<C> {
  const status = steps.at(-1)?.state.value as LoopStatus;
  const visible = steps.slice(1).map(
    ({ event, state }): LoopPathStep => ({
      label: labelOf(event),
      event: event as LoopPathStep['event'],
      state: String(state.value),
    }),
  );
  const description = `${visible.map((step) => step.label).join(' → ')} ⇒ ${status}`;
  const events = visible.map((step) => step.event);
  let expected: DryRun | undefined;
  const run = () => {
    expected ??= dryRun(machine, input, events);
    return expected;
  };
  const plan = { machine, input, description, status, events, expected: run };
  const withSamples =
    options.samples || options.realSteps ? replayWithSamples(plan, visible, options) : undefined;
  let verdict: LoopPathVerdict<C> | undefined;
  const replay = async () => {
    const replay = withSamples
      ? await withSamples.replay(path)
      : await replayLoopPath<C>({
          ...plan,
          ...(options.onStep ? { onStep: stepHook(options.onStep, visible, path) } : {}),
        });
    const { onOutcome } = options;
    if (onOutcome) {
      const named = `onOutcome (${replay.outcome.status}: ${describeValue(replay.outcome)})`;
      await userHook(description, -1, named, () => onOutcome(replay.outcome, path));
    }
    return replay;
  };
  const judged = async () => {
    if (withSamples?.skipped) verdict = { verdict: 'unrealisable', reason: withSamples.skipped };
    else verdict = await verdictOf(replay, description);
    return verdict;
  };
  const path: LoopPath<C> = {
    description,
    status,
    steps: visible,
    get transitions() {
      return run().transitions;
    },
    skipped: withSamples?.skipped,
    get verdict() {
      return verdict;
    },
    replay: async () => {
      if (withSamples?.skipped) {
        await judged();
        return withSamples.replay(path);
      }
      const found = await judged();
      if (found.verdict === 'passed') return found.replay;
      if (found.verdict === 'failed') throw found.error;
      throw new LoopPathUnrealisableError(description, -1, found.reason);
    },
    test: async () => {
      const found = await judged();
      if (found.verdict === 'failed') throw found.error;
      return found;
    },
  };
  return path;
}
