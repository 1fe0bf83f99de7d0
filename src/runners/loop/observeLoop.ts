import type { AnyActorRef, OutputFrom, Subscription } from 'xstate';
import {
  type LoopSnapshotView,
  type RunEvent,
  reportRunEvents,
} from '../../core/chart/runEvents.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';

/** The candidate type `C` of an actor of a loop machine (its output is a `LoopOutcome<C>`), else `unknown`. */
export type LoopCandidateOf<A> = OutputFrom<A> extends LoopOutcome<infer C> ? C : unknown;

/**
 * Calls `onEvent` with the run events of a loop actor you created or spawned yourself (the same
 * events `runLoop`'s `onEvent` gets), from now on: subscribe before `start()` to see them all.
 * An `onEvent` that throws never affects the run. The events' candidates have the loop's candidate
 * type, read from the actor. Returns the subscription.
 * @example const actor = createActor(createLoopMachine(config), { input: { input: 'draft' } });
 *          observeLoop(actor, (event) => { if (event.type === 'decision') log(event.entry.rationale); });
 *          actor.start();
 */
export function observeLoop<A extends AnyActorRef>(
  actor: A,
  onEvent: (event: RunEvent<LoopCandidateOf<A>>) => void,
): Subscription {
  return watchLoopActor(actor, false, (event) => {
    try {
      onEvent(event as RunEvent<LoopCandidateOf<A>>);
    } catch {
      // an observer never changes the run it observes
    }
  });
}

/**
 * Subscribes `deliver` to the events of a loop actor. The snapshot it has now is the baseline;
 * when that very snapshot is delivered at `start()`, a fresh run reports its first step.
 */
export function watchLoopActor(
  actor: AnyActorRef,
  restored: boolean,
  deliver: (event: RunEvent) => void,
): Subscription {
  const initial = actor.getSnapshot() as LoopSnapshotView;
  // a restored actor re-runs the step that was in flight: that counts as the step starting
  let before: LoopSnapshotView | undefined = restored ? { ...initial, children: {} } : initial;
  return actor.subscribe({
    next(snapshot) {
      const after = snapshot as LoopSnapshotView;
      if (!Array.isArray(after.context?.trace)) return; // not a loop machine's actor
      if (after === initial && before === initial) before = undefined;
      reportRunEvents(before, after, deliver);
      before = after;
    },
    error: () => {},
  });
}
