import { startDeadline } from '../../core/chart/deadline.js';
import { keyOf, type LoopContext, STEP_STATE } from '../../core/chart/loopContext.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import type { PersistedSnapshot } from '../../stores/kit/checkpointFormat.js';
import type { RunLink } from './RunLink.js';

/** Which step a branch starts with: a refine of the last candidate, or the step that failed again. */
export type BranchStart = 'refine' | { restart: 'attempt' | 'validate' | 'refine' };

/**
 * The first snapshot of a run branched from a finished one: the original's context (candidate,
 * feedback, counters, trace) under the new settings, a fresh deadline, with its first step in
 * flight — the refine of the last candidate, as routing would have left it had a retry been left,
 * or the step whose transient failures ended the run (with the same input), as `failed` would
 * have. Restoring it runs that step; nothing recorded before it runs again (a fork may give it
 * another input). The ledger keeps the link to the original.
 */
export function branchSnapshot(
  original: LoopContext,
  settings: LoopSettings,
  because: string,
  link: RunLink,
  start: BranchStart,
  replaced?: { input: unknown },
): PersistedSnapshot {
  const step = start === 'refine' ? 'refine' : start.restart;
  const retryCount = original.retryCount + (start === 'refine' ? 1 : 0);
  const attempts = original.attempts + (step === 'attempt' ? 1 : 0);
  const decision: TraceEntry = {
    seq: original.trace.length + 1,
    state: start === 'refine' ? 'routing' : 'failed',
    iterationIndex: original.retryCount,
    attempt: original.attempts,
    decision: start === 'refine' ? 'refine' : 'retry',
    retryCount,
    rationale: because,
    startedAt: Date.now(),
    durationMs: 0,
  };
  const { deadlineHit: _, ...ledger } = original.ledger;
  const context: LoopContext & { ledger: { link: RunLink } } = {
    ...original,
    ...(replaced ? { input: replaced.input, key: keyOf(settings, replaced.input) } : {}),
    settings,
    retryCount,
    attempts,
    failure: undefined,
    pending: undefined,
    phase: STEP_STATE[step],
    trace: settings.trace ? [...original.trace, decision] : [],
    ledger: {
      ...ledger,
      stepStartedAt: Date.now(),
      transientRetried: false,
      retryAt: undefined,
      empty: undefined,
      abortReason: undefined,
      link,
      ...startDeadline(settings.deadlineMs),
    },
  };
  const stepInput = {
    input: context.input,
    feedback: context.feedback,
    // for an attempt, the candidate that failed before it is the previous one
    previous: step === 'attempt' ? context.candidate : context.ledger.previous,
    candidate: context.candidate,
    iteration: retryCount,
    attempt: attempts,
    key: context.key,
    answers: context.ledger.answers,
    deadlineAt: context.ledger.deadlineAt,
  };
  return {
    status: 'active',
    value: STEP_STATE[step],
    historyValue: {},
    context: JSON.parse(JSON.stringify(context)) as Record<string, unknown>,
    children: {
      [step]: { snapshot: { status: 'active', input: stepInput }, src: step, syncSnapshot: false },
    } as unknown as PersistedSnapshot['children'],
  };
}
