import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromPromise,
  type InspectionEvent,
} from 'xstate';
import { forEachTransition, transitionId } from '../analysis/machineGraph.js';

const idsOf = new WeakMap<AnyStateMachine, Map<object, string>>();

/** Maps each transition object of a machine to its `transitionId` (as `machineGraph` names it). */
function transitionIds(machine: AnyStateMachine): Map<object, string> {
  const known = idsOf.get(machine);
  if (known) return known;
  const ids = new Map<object, string>();
  idsOf.set(machine, ids);
  forEachTransition(
    machine,
    () => {},
    (node, event, transition, order) => {
      ids.set(transition, transitionId(node.id, event, order));
    },
  );
  return ids;
}

/** An `inspect` observer that records the transitions a running machine takes, in order. */
export function transitionRecorder(machine: AnyStateMachine) {
  const ids = transitionIds(machine);
  const taken: string[] = [];
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.microstep') return;
    for (const transition of event._transitions) {
      const id = ids.get(transition);
      if (id !== undefined) taken.push(id);
    }
  };
  return { inspect, taken };
}

export const STEP_ACTORS = ['attempt', 'validate', 'refine', 'fallback', 'retryDelay'] as const;

const VOLATILE = new Set([
  'stepStartedAt',
  'retryAt',
  'startedAt',
  'durationMs',
  'deadlineAt',
  'deadlineLeftMs',
]);

/**
 * A snapshot as JSON without its timestamps: two runs along one path must agree on it. The trace
 * only grows, so unless `whole` is set it is summed up by its length and last entry.
 */
export function comparable(snapshot: AnyMachineSnapshot, whole = false): string {
  const { value, status } = snapshot;
  const { trace, ...rest } = snapshot.context as { trace?: unknown[] };
  const context = whole ? snapshot.context : { ...rest, trace: [trace?.length, trace?.at(-1)] };
  return JSON.stringify({ value, status, context }, (key, field) =>
    VOLATILE.has(key) ? undefined : field,
  );
}

/** What feeding a path's events to the machine gives: each snapshot after each event, and the transitions. */
export interface DryRun {
  /** `snapshots[0]` is the initial one, `snapshots[i]` the one after event `i` (1-based; the last in whole). */
  snapshots: string[];
  transitions: string[];
}

const never = fromPromise<unknown, unknown>(() => new Promise<never>(() => {}));
const inertCopies = new WeakMap<AnyStateMachine, AnyStateMachine>();

/** The machine with its steps replaced by ones that never settle: events drive it synchronously. */
export function inertCopy(machine: AnyStateMachine): AnyStateMachine {
  let inert = inertCopies.get(machine);
  if (!inert) {
    inert = machine.provide({
      actors: Object.fromEntries(STEP_ACTORS.map((name) => [name, never])),
    });
    inertCopies.set(machine, inert);
  }
  return inert;
}

/**
 * Sends a path's events (done/error events included) straight to the machine, its steps
 * replaced by ones that never settle: synchronous, nothing runs, every transition is recorded.
 */
export function dryRun(
  machine: AnyStateMachine,
  input: unknown,
  events: readonly EventObject[],
): DryRun {
  const inert = inertCopy(machine);
  const recorder = transitionRecorder(inert);
  const actor = createActor(inert, { input: { input }, inspect: recorder.inspect });
  actor.start();
  const snapshots = [comparable(actor.getSnapshot())];
  events.forEach((event, index) => {
    actor.send(event);
    snapshots.push(comparable(actor.getSnapshot(), index === events.length - 1));
  });
  actor.stop();
  return { snapshots, transitions: recorder.taken };
}
