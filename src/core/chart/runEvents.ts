import type { StepName } from '../vocabulary/failures.js';
import type { LoopOutcome } from '../vocabulary/outcome.js';
import type { TraceDecision } from '../vocabulary/statuses.js';
import type { TraceEntry } from '../vocabulary/trace.js';
import { type LoopContext, type PendingRequest, STEP_STATE } from './loopContext.js';

/** A step visit's trace entry: it has no `decision`. */
export type StepEntry = TraceEntry & { decision?: undefined };
/** A decision's trace entry. */
export type DecisionEntry = TraceEntry & { decision: TraceDecision };

/** A step was invoked (its trace entry follows as `step.finished` when it settles). */
export interface StepStartedEvent {
  type: 'step.started';
  step: StepName;
  /** The working state that runs it (`attempting`, `validating`, …). */
  state: string;
  /** The 1-based attempt number this step belongs to. */
  attempt: number;
  /** Refine cycles so far. */
  iterationIndex: number;
  /** The reproducibility key of the attempt's input, for an attempt. */
  key?: string;
  startedAt: number;
}

/** A step settled: `entry` is its trace entry, exactly as the outcome's trace holds it. */
export interface StepFinishedEvent {
  type: 'step.finished';
  entry: StepEntry;
}

/** The loop decided (`refine`, `proceed`, `retry`, a stop…): `entry` is the trace's decision entry. */
export interface DecisionEvent {
  type: 'decision';
  entry: DecisionEntry;
}

/** The loop waits for a person (a review or a clarification question). */
export interface PauseEvent<C = unknown> {
  type: 'pause';
  state: string;
  pending: PendingRequest<C>;
}

/** The run ended. */
export interface OutcomeEvent<C = unknown> {
  type: 'outcome';
  outcome: LoopOutcome<C>;
}

/** What `onEvent` receives, in order: the trace's vocabulary, typed. */
export type RunEvent<C = unknown> =
  | StepStartedEvent
  | StepFinishedEvent
  | DecisionEvent
  | PauseEvent<C>
  | OutcomeEvent<C>;

/** The `type`s of `RunEvent`. */
export type RunEventType = RunEvent['type'];

/** The parts of a loop actor's snapshot the events are read from. */
export interface LoopSnapshotView {
  status: string;
  value: unknown;
  context: LoopContext;
  children: Record<string, unknown>;
  output?: unknown;
  hasTag(tag: string): boolean;
}

const STEP_OF_STATE = new Map<unknown, StepName>(
  Object.entries(STEP_STATE).map(([step, state]) => [state, step as StepName]),
);

/**
 * Reports the events between two snapshots of a loop actor, in order: the trace entries added
 * since `before` (each a `step.finished` or a `decision`), then a newly invoked step, a new pause,
 * the outcome. With no `before`, the snapshot is the run's first.
 */
export function reportRunEvents(
  before: LoopSnapshotView | undefined,
  after: LoopSnapshotView,
  deliver: (event: RunEvent) => void,
): void {
  const { context } = after;
  const { trace } = context;
  for (let i = before?.context.trace.length ?? 0; i < trace.length; i++) {
    const entry = trace[i] as TraceEntry;
    deliver(
      entry.decision === undefined
        ? { type: 'step.finished', entry: entry as StepEntry }
        : { type: 'decision', entry: entry as DecisionEntry },
    );
  }
  if (after.status === 'done') {
    deliver({ type: 'outcome', outcome: after.output as LoopOutcome });
    return;
  }
  if (after.status !== 'active') return;
  const step = STEP_OF_STATE.get(after.value);
  if (step && after.children[step] && after.children[step] !== before?.children[step]) {
    const started: StepStartedEvent = {
      type: 'step.started',
      step,
      state: after.value as string,
      attempt: context.attempts,
      iterationIndex: context.retryCount,
      startedAt: context.ledger.stepStartedAt,
    };
    if (step === 'attempt' && context.key !== undefined) started.key = context.key;
    deliver(started);
  }
  if (context.pending && after.hasTag('waitsForHuman') && !before?.hasTag('waitsForHuman')) {
    deliver({ type: 'pause', state: context.phase, pending: context.pending });
  }
}
