import { freezeDeadline, thawDeadline } from '../../core/chart/deadline.js';
import type { LoopContext } from '../../core/chart/loopContext.js';
import { monotonicClock } from '../../core/vocabulary/clock.js';
import type { PersistedSnapshot } from '../../stores/kit/checkpointFormat.js';

/**
 * A parked run waits for a person like any pause: its deadline clock stops with the time it had
 * left (the downtime before parking counted), and starts again when the park is settled.
 */
export function freezeParked(snapshot: PersistedSnapshot): PersistedSnapshot {
  return withLedger(snapshot, (ledger) => freezeDeadline(ledger, monotonicClock.now()));
}

/** Settling a park: the clock runs again from now with the time that was left. */
export function thawParked(snapshot: PersistedSnapshot): PersistedSnapshot {
  return withLedger(snapshot, (ledger) => thawDeadline(ledger, monotonicClock.now()));
}

type Ledger = LoopContext['ledger'];

function withLedger(snapshot: PersistedSnapshot, change: (ledger: Ledger) => Ledger) {
  const context = snapshot.context as unknown as LoopContext;
  const ledger = change(context.ledger);
  const children = Object.fromEntries(
    Object.entries(snapshot.children ?? {}).map(([id, child]) => {
      const input = child?.snapshot?.input as { deadlineAt?: unknown } | undefined;
      if (!child?.snapshot || input === undefined || !('deadlineAt' in input)) return [id, child];
      return [
        id,
        {
          ...child,
          snapshot: { ...child.snapshot, input: { ...input, deadlineAt: ledger.deadlineAt } },
        },
      ];
    }),
  );
  return { ...snapshot, context: { ...snapshot.context, ledger }, children };
}
