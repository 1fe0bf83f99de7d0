import type { AnyStateMachine } from 'xstate';
import { type LoopConfig, type LoopSettings, resolveConfig } from '../vocabulary/config.js';
import { buildLoopMachine, type LoopMachine } from './loopMachine.js';
import { routeTable } from './loopRouteTable.js';
import { type LoopShape, shapeOf } from './loopShape.js';
import { machineFingerprint } from './machineFingerprint.js';
import { type RunSteps, runStepsOf } from './stepActors.js';
import type { StepGate } from './stepGate.js';

/**
 * A loop compiled once: its config resolved, the chart built, its steps gathered. Every runner
 * takes it (`runLoop`, `resumeLoop`, pipeline stages, DBOS, the agent, the viewer report), so
 * nothing below re-resolves the config or looks the steps up elsewhere.
 */
export interface LoopPlan<I = unknown, C = unknown> {
  readonly kind: 'loopchart.plan';
  /** The chart's id (`config.id`, default `'loop'`). */
  readonly id: string;
  /** The config the plan was compiled from, as given. */
  readonly config: LoopConfig<I, C>;
  readonly settings: LoopSettings;
  /** Which parts of the chart the settings can reach. */
  readonly shape: LoopShape;
  /** The config's step functions, as the step actors call them. */
  readonly steps: RunSteps;
  /** The loop statechart running `steps`, built on first read: for `createActor`, `.provide()`, tests. */
  readonly chart: LoopMachine<I, C>;
  /**
   * The same chart without steps, shared by plans of equal id and settings: a runner starts it
   * with the run's steps in its input (`{ input, steps }`), so no run builds a machine.
   */
  readonly sharedChart: LoopMachine<I, C>;
  /** The chart's definition hashed with the settings: a checkpoint of another chart is refused. */
  readonly fingerprint: string;
  /** The chart's routing rows, one `guard → target` a line, by state, in the order they are tried. */
  readonly routes: string;
}

/**
 * Validates a config once (bad config throws `LoopConfigError`) and compiles it into the plan
 * every runner takes. Reuse the plan across runs: nothing is resolved or built per run.
 * @example const plan = compileLoop({ attempt, validate, maxRetries: 3 });
 *          for (const input of inputs) await runLoop(plan, input);
 */
export function compileLoop<I = unknown, C = unknown>(config: LoopConfig<I, C>): LoopPlan<I, C> {
  return planFrom(config, resolveConfig(config), config.id ?? 'loop');
}

/** The plan under another chart id (a pipeline names a stage's loop after the stage); nothing is resolved again. */
export function withPlanId<I, C>(plan: LoopPlan<I, C>, id: string): LoopPlan<I, C> {
  return plan.id === id ? plan : planFrom(plan.config, plan.settings, id);
}

function planFrom<I, C>(config: LoopConfig<I, C>, settings: LoopSettings, id: string) {
  const shared = sharedChart(id, settings);
  const steps = runStepsOf(config);
  let chart: LoopMachine<I, C> | undefined;
  return Object.freeze({
    kind: 'loopchart.plan' as const,
    id,
    config,
    settings,
    shape: shared.shape,
    steps,
    get chart() {
      chart ??= buildLoopMachine<I, C>(id, settings, steps);
      return chart;
    },
    sharedChart: shared.machine as unknown as LoopMachine<I, C>,
    get fingerprint() {
      shared.fingerprint ??= machineFingerprint(shared.machine as AnyStateMachine, settings);
      return shared.fingerprint;
    },
    get routes() {
      return routeTable(shared.shape);
    },
  }) satisfies LoopPlan<I, C> as LoopPlan<I, C>;
}

/** True for a value `compileLoop` returned. */
export function isLoopPlan(value: unknown): value is LoopPlan {
  return (value as { kind?: unknown } | null)?.kind === 'loopchart.plan';
}

/** The plan of a config, or the plan itself: what a runner that takes either works with. */
export function planOf<I, C>(loop: LoopConfig<I, C> | LoopPlan<I, C>): LoopPlan<I, C> {
  return isLoopPlan(loop) ? (loop as LoopPlan<I, C>) : compileLoop(loop as LoopConfig<I, C>);
}

/** The steps of a run checkpointed through `gate`: the plan's, each waiting for its save. */
export function gatedSteps<I, C>(plan: LoopPlan<I, C>, gate: StepGate): RunSteps {
  return { ...plan.steps, gate };
}

/**
 * A chart that runs `steps` whatever input a run starts with: for a machine whose children are
 * restored without their input (a pipeline's stage loops).
 */
export function chartWithSteps<I, C>(plan: LoopPlan<I, C>, steps: RunSteps): LoopMachine<I, C> {
  return buildLoopMachine<I, C>(plan.id, plan.settings, steps);
}

interface Shared {
  machine: LoopMachine<never, never>;
  shape: LoopShape;
  fingerprint: string | undefined;
}

// A chart holds no step functions (a run brings its own, `LoopMachineInput.steps`), so plans of
// equal settings share one: building it costs about a millisecond, a config built per call none.
const charts = new Map<string, Shared>();

function sharedChart(id: string, settings: LoopSettings): Shared {
  const key = `${id}\u0000${JSON.stringify(settings)}`;
  let shared = charts.get(key);
  if (shared === undefined) {
    const machine = buildLoopMachine<never, never>(id, settings);
    shared = { machine, shape: shapeOf(settings), fingerprint: undefined };
    if (charts.size >= 64) charts.delete(charts.keys().next().value as string);
    charts.set(key, shared);
  }
  return shared;
}

/**
 * Builds the loop statechart for a config. Bad config throws `LoopConfigError` here. The machine
 * holds exactly the states and branches the config can reach (no fallback state without a
 * fallback, no budget branches without `maxCost`), so path tests can cover all of it.
 * @example const machine = createLoopMachine({ attempt, validate, maxRetries: 3 });
 *          const outcome = await toPromise(createActor(machine, { input: { input: 'draft' } }).start());
 */
export function createLoopMachine<I = unknown, C = unknown>(config: LoopConfig<I, C>) {
  return compileLoop(config).chart;
}
