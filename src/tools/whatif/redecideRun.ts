import { reservationRefusal } from '../../core/chart/costReservation.js';
import { STEP_STATE, stepOfState } from '../../core/chart/loopContext.js';
import { RETRY_ROWS } from '../../core/chart/loopRoutes.js';
import { shapeOf } from '../../core/chart/loopShape.js';
import { FAILURE_ROWS, type Row, VERDICT_ROWS } from '../../core/decisions/decisionTable.js';
import type { RouteFacts } from '../../core/decisions/routeFacts.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import type { FailureRecord } from '../../core/vocabulary/failures.js';
import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import type { Verdict } from '../../core/vocabulary/validation.js';
import type { Redecision } from './Redecision.js';
import type { RecordedRun } from './recordedRun.js';
import { routeTarget } from './routeTarget.js';

const CORRECTABLE_ONLY = new Set([
  'refine',
  'fallback',
  'stalled',
  'iteration_exhausted',
  'ceiling_stop',
  'budget_stop',
]);
const CORRECTABLE: Verdict = { valid: false, error: { severity: 'correctable', message: '' } };
const NO_DIAGNOSTIC: Verdict = { valid: false, error: null };
const fingerprintMode = (settings: LoopSettings) => settings.stall?.on ?? 'candidate-and-verdict';

/**
 * Re-decides one recorded run under `settings` without calling a step: walks its trace, feeding the
 * recorded step results to the decision table's rows (`VERDICT_ROWS`, `FAILURE_ROWS`) under the new
 * bounds. Exact until the new bounds ask for a step the record does not hold (a refine, retry or
 * fallback it never ran, an attempt past its end) or for a fact it did not keep.
 * @example const decision = redecideRun(run, candidateSettings(run.settings, { maxRetries: 1 }));
 */
export function redecideRun(run: RecordedRun, settings: LoopSettings): Redecision {
  const { trace } = run;
  const shape = shapeOf(settings);
  const start = trace[0]?.startedAt ?? 0;
  const lastFailure = trace.findLastIndex((entry) => entry.failureKind !== undefined);
  const deadlineMoved = settings.deadlineMs !== run.settings.deadlineMs;
  const stallUnknown =
    settings.stall !== null && fingerprintMode(settings) !== fingerprintMode(run.settings);
  let next = 0;
  let steps = 0;
  let end = start;
  let attempts = 0;
  let retryCount = 0;
  let cost = 0;
  let print: string | undefined;
  let repeats = 0;
  let validations = 0;
  let transientRetried = false;
  let verdict: Verdict | undefined;
  let failure: FailureRecord | undefined;
  let failureVariants: FailureRecord[] = [];
  let phase: 'attempting' | 'validating' | 'routing' | 'refining' | 'fallingBack' | 'failed' =
    'attempting';

  const soFar = () => ({ attempts, iterations: retryCount, cost, timeMs: end - start });
  const unknown = (reason: string): Redecision => ({
    exact: false,
    beyondStep: steps,
    reason,
    soFar: soFar(),
  });
  const exact = (status: string): Redecision => ({
    exact: true,
    outcome: { status: status as LoopStatus, ...soFar() },
  });
  const facts = (variant: Partial<RouteFacts> = {}): RouteFacts => ({
    verdict,
    retryCount,
    maxRetries: settings.maxRetries,
    attempts,
    maxAttempts: settings.maxAttempts,
    cost,
    maxCost: settings.maxCost,
    stallRepeats: repeats,
    stallAfter: settings.stall?.after ?? null,
    failure,
    failedIdempotent: failure !== undefined && settings.idempotent[failure.step],
    maxRetryDelayMs: settings.maxRetryDelayMs,
    transientRetried,
    ...variant,
  });

  /** The next step visit of `state`, or why the record cannot give it. */
  const stepEntry = (state: string): TraceEntry | string => {
    const entry = trace[next];
    if (entry === undefined) return `the record ends before ${state} (${recordEnd(run)})`;
    if (entry.decision === 'aborted') return 'the caller aborted the run there';
    if (entry.decision !== undefined || entry.state !== state) {
      return `the record holds no ${stepOfState(state)} step there`;
    }
    const ends = entry.startedAt + entry.durationMs;
    if (deadlineMoved && settings.deadlineMs !== null && ends - start > settings.deadlineMs) {
      return `deadlineMs ${settings.deadlineMs} would end the run inside step ${steps + 1} (a measured time, not a recorded decision)`;
    }
    next += 1;
    steps += 1;
    end = ends;
    if (entry.failureKind === undefined) {
      cost = Math.min(Number.MAX_VALUE, cost + (entry.cost ?? 0));
      transientRetried = false;
    }
    return entry;
  };
  // maxCost refuses a step before its call once the run has spent it (costEstimates are not stored
  // with a run, so none are assumed)
  const refuse = (state: string): boolean => {
    const step = stepOfState(state);
    const refusal = step && reservationRefusal(step, undefined, cost, settings.maxCost);
    if (!refusal) return false;
    failure = refusal;
    failureVariants = [refusal];
    return true;
  };
  const failAt = (entry: TraceEntry): string | undefined => {
    const step = stepOfState(entry.state);
    const kind = entry.failureKind;
    if (step === undefined || kind === undefined) return 'a failure of an unknown step';
    const index = trace.indexOf(entry);
    if (index === lastFailure && run.failure !== undefined) {
      if (run.failure.step !== step || run.failure.kind !== kind)
        return 'the record does not keep the last failure';
      if (run.failure.deadline && deadlineMoved)
        return 'the run was stopped by its deadline, and the new deadline is another';
      if (run.failure.budget)
        return 'maxCost refused this step in the record; the candidate would call it';
      failureVariants = [run.failure];
    } else if (trace[index + 1]?.decision !== 'retry') {
      return 'the record does not keep the last failure';
    } else {
      // the run went on after this failure, so under the recorded settings it was retried: its
      // delay was within maxRetryDelayMs, and a transient one on a non-idempotent step had no effect
      const effects: FailureRecord['effect'][] =
        kind === 'transient' && !run.settings.idempotent[step] ? ['none'] : ['none', 'unknown'];
      failureVariants = effects.flatMap((effect) =>
        [undefined, run.settings.maxRetryDelayMs].map((retryAfterMs) => ({
          step,
          kind,
          effect,
          message: entry.rationale ?? '',
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        })),
      );
    }
    failure = failureVariants[0];
    return undefined;
  };

  if (!run.settings.trace) return unknown('the run was stored with the trace off');
  for (;;) {
    switch (phase) {
      case 'attempting': {
        if (refuse('attempting')) {
          phase = 'failed';
          break;
        }
        const entry = stepEntry('attempting');
        if (typeof entry === 'string') return unknown(entry);
        attempts += 1;
        if (entry.failureKind !== undefined) {
          const problem = failAt(entry);
          if (problem) return unknown(problem);
          phase = 'failed';
          break;
        }
        const after = trace[next]?.decision;
        if (after === 'empty') return exact('empty');
        if (after === 'clarify') return unknown('the attempt asked a person a question');
        phase = 'validating';
        break;
      }
      case 'validating': {
        if (refuse('validating')) {
          phase = 'failed';
          break;
        }
        const entry = stepEntry('validating');
        if (typeof entry === 'string') return unknown(entry);
        if (entry.failureKind !== undefined) {
          const problem = failAt(entry);
          if (problem) return unknown(problem);
          phase = 'failed';
          break;
        }
        validations += 1;
        repeats = entry.fingerprint !== undefined && entry.fingerprint === print ? repeats + 1 : 1;
        print = entry.fingerprint;
        const decision = trace[next]?.decision;
        if (decision === 'proceed') verdict = { valid: true };
        // the rows that end on a verdict come before every budget row: any such verdict will do
        else if (decision === 'terminate_with_partial') verdict = run.verdict ?? NO_DIAGNOSTIC;
        else if (decision !== undefined && CORRECTABLE_ONLY.has(decision)) verdict = CORRECTABLE;
        else if (decision === 'review') return unknown('a person reviewed the verdict');
        else
          return unknown(`the record does not say how the validator answered (${recordEnd(run)})`);
        if (verdict === undefined) return unknown('the record does not keep the last verdict');
        const { review } = settings;
        if (verdict.valid ? review.beforeProceed : review.afterFailedValidation) {
          return unknown('the run would wait for a person to review the verdict');
        }
        phase = 'routing';
        break;
      }
      case 'routing': {
        const variants = stallUnknown
          ? [facts({ stallRepeats: 1 }), facts({ stallRepeats: validations })]
          : [facts()];
        const target = routeTarget(VERDICT_ROWS, shape, variants);
        if (target === undefined) {
          return unknown(
            `the fingerprints were taken on ${fingerprintMode(run.settings)}, not ${fingerprintMode(settings)}`,
          );
        }
        const recorded = trace[next]?.decision;
        if (target === 'refining') {
          if (recorded !== 'refine')
            return unknown(`it would refine where the run ${said(recorded)}`);
          retryCount += 1;
          next += 1;
          phase = 'refining';
        } else if (target === 'fallingBack') {
          if (recorded !== 'fallback')
            return unknown(`it would run the fallback where the run ${said(recorded)}`);
          next += 1;
          phase = 'fallingBack';
        } else return exact(target);
        break;
      }
      case 'refining':
      case 'fallingBack': {
        if (refuse(phase)) {
          phase = 'failed';
          break;
        }
        const entry = stepEntry(phase);
        if (typeof entry === 'string') return unknown(entry);
        if (entry.failureKind !== undefined) {
          const problem = failAt(entry);
          if (problem) return unknown(problem);
          phase = 'failed';
          break;
        }
        if (phase === 'fallingBack') return exact('fallback');
        phase = 'attempting';
        break;
      }
      case 'failed': {
        const target = routeTarget(
          FAILURE_ROWS,
          shape,
          failureVariants.map((f) => facts({ failure: f })),
        );
        if (target === undefined) {
          return unknown(
            `the record does not keep whether ${failure?.step}'s failure had an effect or how long it asked to wait`,
          );
        }
        if (target !== 'waitingToRetry') return exact(target);
        const step = failure?.step ?? 'attempt';
        if (trace[next]?.decision !== 'retry')
          return unknown(`it would retry ${step} where the run ${said(trace[next]?.decision)}`);
        next += 1;
        transientRetried = true;
        // the deadline during the wait is judged by the time of the step after it
        const retryRows: readonly Row[] = RETRY_ROWS;
        const after = routeTarget(
          retryRows.filter((row) => row.guard !== 'retryWaitHitDeadline'),
          shape,
          [facts()],
        );
        phase = after === 'attempting' || after === 'refining' ? after : 'validating';
        if (STEP_STATE[step] !== phase)
          return unknown(`the retry of ${step} would run another step`);
        break;
      }
    }
  }
}

function said(decision: string | undefined): string {
  return decision === undefined ? 'stopped' : `decided ${decision}`;
}

function recordEnd(run: RecordedRun): string {
  return run.status === 'running' || run.status === 'paused'
    ? `the run is ${run.status}`
    : `it ended ${run.status}`;
}
