import { DBOS } from '@dbos-inc/dbos-sdk';
import { fromPromise } from 'xstate';
import { runOneStep } from '../../core/chart/runOneStep.js';
import { isIdempotent } from '../../core/chart/standInSteps.js';
import type { RunSteps, StepInput } from '../../core/chart/stepActors.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import {
  classifyFailure,
  type FailureRecord,
  markFailureRecord,
  type StepName,
  uncertainSideEffect,
} from '../../core/vocabulary/failures.js';
import {
  clarificationRequest,
  emptyResult,
  isClarificationRequest,
  isEmptyResult,
  readStepResult,
  withCost,
} from '../../core/vocabulary/stepResults.js';
import { EngineLink, journalled } from './driveInWorkflow.js';

/** What DBOS records for one loop step: JSON only, so a replay returns exactly what the step did. */
export type RecordedStep =
  | { ok: true; value: unknown; shape: 'value' | 'empty' | 'clarification'; cost?: number }
  | { ok: false; failure: FailureRecord };

/** The journalled decision of a retry wait: `{ deadline, wakeAt }`. */
export const RETRY_WAIT = 'loopchart.retryWait';

/** The name of the marker step journalled before a non-idempotent step that follows a wait. */
export const startedMarker = (step: StepName) => `${step}.started`;

/**
 * A loop step actor whose whole step (the user's function, its timeout, the run's deadline, the
 * classification of its failure) runs as one DBOS step with DBOS's retries off, so a replay
 * returns what the step did, deadline hits included.
 *
 * A non-idempotent step must not run again if an earlier process started it and died before its
 * output was recorded. On replay DBOS returns recorded outputs without calling our functions, so a
 * step body that runs while the operation journalled just before it was replayed means an earlier
 * execution got past that operation: the step may have acted, and it is recorded as an uncertain
 * failure instead. Only after a wait (a retry sleep, a pause) could an earlier execution have
 * stopped for long between two operations, so there a `<step>.started` marker is journalled
 * first and its own replay tells the same thing. Which operations come in which order is the same
 * in every execution, so a replay journals the same ones.
 */
export function journalledStepActor(step: StepName, steps: RunSteps, settings: LoopSettings) {
  const idempotent = isIdempotent(step, steps, settings);
  return fromPromise<unknown, StepInput>(async ({ input, signal }) => {
    const engine = EngineLink.current();
    if (!idempotent && (engine.last === 'wait' || engine.last === 'none')) {
      await journalled(engine, startedMarker(step), () => true);
    }
    const before = engine.last;
    const recorded = await journalled(engine, step, async (): Promise<RecordedStep> => {
      if (!idempotent && before === 'replayed') return { ok: false, failure: inFlight(step) };
      const within = stepSignal(signal);
      try {
        return encode(await runOneStep(step, () => steps, settings, input, within.signal));
      } catch (failure) {
        return { ok: false, failure: failure as FailureRecord };
      } finally {
        within.release();
      }
    });
    return decode(recorded);
  });
}

function inFlight(step: StepName): FailureRecord {
  const message = `${step} was in flight when its process stopped; it is not idempotent, so it was not run again`;
  return classifyFailure(uncertainSideEffect(message), step);
}

/** A signal that aborts when the loop stops the step or when DBOS cancels the workflow. */
function stepSignal(actorSignal: AbortSignal) {
  const controller = new AbortController();
  const parents = [actorSignal, DBOS.stepStatus?.cancelSignal].filter((s) => s !== undefined);
  const undo = parents.map((parent) => {
    const forward = () => controller.abort(parent.reason);
    if (parent.aborted) forward();
    else parent.addEventListener('abort', forward, { once: true });
    return () => parent.removeEventListener('abort', forward);
  });
  return {
    signal: controller.signal,
    release: () => {
      for (const fn of undo) fn();
    },
  };
}

function encode(output: unknown): RecordedStep {
  const read = readStepResult(output);
  const cost = read.costed ? { cost: read.cost } : {};
  const { value } = read;
  if (isEmptyResult(value))
    return { ok: true, shape: 'empty', value: { reason: value.reason }, ...cost };
  if (isClarificationRequest(value)) {
    const { question, options, context } = value;
    const request = {
      question,
      ...(options === undefined ? {} : { options }),
      ...(context === undefined ? {} : { context }),
    };
    return { ok: true, shape: 'clarification', value: request, ...cost };
  }
  return { ok: true, shape: 'value', value, ...cost };
}

/** A recorded step's output as the step actor returns it, or its failure thrown. */
export function decode(recorded: RecordedStep): unknown {
  if (!recorded.ok) throw markFailureRecord(recorded.failure);
  const { shape, value } = recorded;
  let result: unknown = value;
  if (shape === 'empty') result = emptyResult((value as { reason: string }).reason);
  if (shape === 'clarification') {
    result = clarificationRequest(value as Parameters<typeof clarificationRequest>[0]);
  }
  return recorded.cost === undefined ? result : withCost(result, recorded.cost);
}
