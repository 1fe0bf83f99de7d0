import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  classifyFailure,
  type FailureClassifier,
  type FailureRecord,
  markFailureRecord,
  type StepName,
  uncertainSideEffect,
} from '../failures.js';
import { stepTimeout } from '../machines/stepActors.js';
import {
  clarificationRequest,
  emptyResult,
  isClarificationRequest,
  isEmptyResult,
  readStepResult,
  withCost,
} from '../stepResults.js';
import { EngineLink } from './driveInWorkflow.js';

/** What DBOS records for one loop step: JSON only, so a replay returns exactly what the step did. */
export type RecordedStep =
  | { ok: true; value: unknown; shape: 'value' | 'empty' | 'clarification'; cost?: number }
  | { ok: false; failure: FailureRecord };

/** How one user step runs inside the workflow. */
export interface JournalledStepOptions {
  step: StepName;
  idempotent: boolean;
  timeoutMs: number | null;
  classify: FailureClassifier | undefined;
}

type AnyStep = (...args: unknown[]) => unknown;

/**
 * Wraps a user step so that it runs as a DBOS step whose recorded output is its result or its
 * classified failure (DBOS's own retries off). A non-idempotent step is preceded by a journalled
 * `<step>.started` marker. On replay DBOS returns recorded outputs without calling our functions,
 * so the step's own function only runs when no output is recorded; if the marker was not written
 * by this execution at that point, an earlier process started the step and died before its output
 * was recorded: it may have acted, so it is recorded as an uncertain failure, not run again.
 */
export function journalledStep<F>(fn: F, options: JournalledStepOptions): F {
  const { step, idempotent, timeoutMs, classify } = options;
  const wrapper = async (...args: unknown[]) => {
    const engine = EngineLink.current();
    let markedNow = idempotent;
    if (!idempotent) {
      await engine.call(() =>
        DBOS.runStep(
          async () => {
            markedNow = true;
            return true;
          },
          { name: `${step}.started`, retriesAllowed: false },
        ),
      );
    }
    const recorded = await engine.call(() =>
      DBOS.runStep(
        async (): Promise<RecordedStep> => {
          if (!markedNow) return { ok: false, failure: inFlightAtCrash(step) };
          try {
            return encode(step, await runWithin(fn as AnyStep, args, step, timeoutMs));
          } catch (error) {
            return { ok: false, failure: classifyFailure(error, step, classify) };
          }
        },
        { name: step, retriesAllowed: false },
      ),
    );
    return decode(recorded);
  };
  return wrapper as F;
}

function inFlightAtCrash(step: StepName): FailureRecord {
  const message = `${step} was in flight when its process stopped; it is not idempotent, so it was not run again`;
  return classifyFailure(uncertainSideEffect(message), step);
}

/**
 * Runs the step with a signal that aborts when the loop stops, when DBOS cancels the workflow
 * (`DBOS.stepStatus.cancelSignal`) or when `timeoutMs` passes (the step then rejects at once).
 */
async function runWithin(
  fn: AnyStep,
  args: unknown[],
  step: StepName,
  timeoutMs: number | null,
): Promise<unknown> {
  const ctx = args.at(-1) as { signal: AbortSignal };
  const controller = new AbortController();
  const parents = [ctx.signal, DBOS.stepStatus?.cancelSignal].filter((s) => s !== undefined);
  const forwards = parents.map((parent) => {
    const forward = () => controller.abort(parent.reason);
    if (parent.aborted) forward();
    else parent.addEventListener('abort', forward, { once: true });
    return () => parent.removeEventListener('abort', forward);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    if (timeoutMs === null) return;
    timer = setTimeout(() => {
      const failure = stepTimeout(step, timeoutMs);
      controller.abort(failure);
      reject(failure);
    }, timeoutMs);
  });
  const own = Object.freeze({ ...ctx, signal: controller.signal });
  const work = Promise.resolve().then(() => fn(...args.slice(0, -1), own));
  work.catch(() => {});
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
    for (const undo of forwards) undo();
  }
}

function encode(step: StepName, raw: unknown): RecordedStep {
  const read = readStepResult(raw);
  if (read.costProblem) {
    return {
      ok: false,
      failure: { step, kind: 'permanent', effect: 'none', message: `${step} ${read.costProblem}` },
    };
  }
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

function decode(recorded: RecordedStep): unknown {
  if (!recorded.ok) throw markFailureRecord(recorded.failure);
  const { shape, value } = recorded;
  let result: unknown = value;
  if (shape === 'empty') result = emptyResult((value as { reason: string }).reason);
  if (shape === 'clarification') {
    result = clarificationRequest(value as Parameters<typeof clarificationRequest>[0]);
  }
  return recorded.cost === undefined ? result : withCost(result, recorded.cost);
}
