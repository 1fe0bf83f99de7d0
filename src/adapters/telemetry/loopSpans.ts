import type { RunEvent, StepStartedEvent } from '../../core/chart/runEvents.js';
import { readError } from '../../core/vocabulary/failures.js';
import type { TraceEntry } from '../../core/vocabulary/trace.js';
import {
  type OpenTelemetryApi,
  SPAN_KIND_INTERNAL,
  type SpanAttributes,
  type SpanTracer,
  STATUS_ERROR,
} from './spanTypes.js';

/** The spans of one run, fed with its events. */
export interface LoopSpans {
  readonly api: OpenTelemetryApi | undefined;
  /** The caller's context with the run span set in it (undefined when the API is absent). */
  readonly context: unknown;
  record(event: RunEvent): void;
  /** Ends the run span as an error that is not an outcome (a failed checkpoint save). */
  fail(error: unknown): void;
}

const SPAN_NAMES = {
  attempt: 'loopchart.attempt',
  validate: 'loopchart.validate',
  refine: 'loopchart.refine',
  fallback: 'loopchart.fallback',
} as const;

/**
 * How long closed steps wait for their spans to be made. Made together at the end of a quick run
 * (or a second after a step of a long one closed), a run's step spans cost about a third less than
 * made one at a time between the statechart's transitions (`npm run bench -- loops`); their times
 * are the steps' own either way.
 */
const STEP_SPANS_HELD_MS = 1_000;

/**
 * A step whose span is not made yet: it is started and ended in one go, with every attribute at
 * once, after the step closed (each later `setAttributes` would add to the SDK's cost a span).
 */
interface OpenStep {
  name: string;
  startTime: number;
  attributes: SpanAttributes;
  /** Set once its trace entry arrived; it closes when the next step starts or the run ends. */
  endsAt?: number;
  error?: string;
  decided?: boolean;
}

/**
 * Starts the run span `invoke_workflow <loop id>` (OpenTelemetry GenAI conventions), parented to
 * the caller's active span, and one `loopchart.<step>` span per step under it, each attributed
 * from the step's trace entry and the decision that followed it.
 */
export function loopSpans(
  tracer: SpanTracer,
  api: OpenTelemetryApi | undefined,
  loopId: string,
): LoopSpans {
  const parent = api?.context.active();
  const run = tracer.startSpan(
    `invoke_workflow ${loopId}`,
    {
      kind: SPAN_KIND_INTERNAL,
      attributes: { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': loopId },
    },
    parent,
  );
  const context = api && parent !== undefined ? api.trace.setSpan(parent, run) : parent;
  let step: OpenStep | undefined;
  let ended = false;
  const closed: OpenStep[] = [];
  let held: ReturnType<typeof setTimeout> | undefined;

  const makeClosedSpans = () => {
    clearTimeout(held);
    held = undefined;
    for (const { name, startTime, attributes, endsAt, error } of closed.splice(0)) {
      const span = tracer.startSpan(
        name,
        { kind: SPAN_KIND_INTERNAL, startTime, attributes },
        context,
      );
      if (error !== undefined) span.setStatus({ code: STATUS_ERROR, message: error });
      span.end(endsAt);
    }
  };
  const closeStep = () => {
    if (!step) return;
    closed.push(step);
    step = undefined;
    held ??= unrefTimer(setTimeout(makeHeldSpans, STEP_SPANS_HELD_MS));
  };
  // from a timer, so a tracer that throws must not reach the process
  const makeHeldSpans = () => {
    try {
      makeClosedSpans();
    } catch {}
  };
  const startStep = (event: StepStartedEvent) => {
    closeStep();
    const attributes: SpanAttributes = {
      'loopchart.step': event.step,
      'loopchart.attempt': event.attempt,
      'loopchart.iteration': event.iterationIndex,
    };
    if (event.key) attributes['loopchart.key'] = event.key;
    step = { name: SPAN_NAMES[event.step], startTime: event.startedAt, attributes };
  };
  const finishStep = (entry: TraceEntry) => {
    if (!step) return;
    step.endsAt = entry.startedAt + entry.durationMs;
    addEntryAttributes(step.attributes, entry);
    if (entry.failureKind) step.error = entry.rationale ?? entry.failureKind;
  };
  const endRun = (attributes: SpanAttributes, error?: string) => {
    if (ended) return;
    ended = true;
    closeStep();
    makeClosedSpans();
    run.setAttributes(attributes);
    if (error !== undefined) run.setStatus({ code: STATUS_ERROR, message: error });
    run.end();
  };

  return {
    api,
    context,
    record(event) {
      if (ended) return;
      switch (event.type) {
        case 'step.started':
          return startStep(event);
        case 'step.finished':
          return finishStep(event.entry);
        case 'decision': {
          // the decision is an attribute of the step it followed; a second one is a run event
          const { entry } = event;
          if (step && !step.decided) {
            step.decided = true;
            step.attributes['loopchart.decision'] = entry.decision;
            return;
          }
          run.addEvent(
            'loopchart.decision',
            {
              'loopchart.decision': entry.decision,
              ...(entry.rationale ? { 'loopchart.rationale': entry.rationale.slice(0, 500) } : {}),
            },
            entry.startedAt,
          );
          return;
        }
        case 'pause':
          return endRun({ 'loopchart.status': 'paused', 'loopchart.paused_in': event.state });
        case 'outcome': {
          const { outcome } = event;
          const attributes: SpanAttributes = {
            'loopchart.status': outcome.status,
            'loopchart.iterations': outcome.iterations,
            'loopchart.attempts': outcome.attempts,
            'loopchart.cost': outcome.cost,
          };
          if (outcome.ok) return endRun(attributes);
          const cause = outcome.error.cause;
          return endRun(
            {
              ...attributes,
              'error.type': outcome.status,
              ...(cause ? { 'loopchart.failure.kind': cause.kind } : {}),
              ...(cause?.status ? { 'http.response.status_code': cause.status } : {}),
            },
            outcome.error.message.slice(0, 1000),
          );
        }
      }
    },
    fail(error) {
      const { message, name } = readError(error);
      endRun({ 'error.type': name ?? 'Error' }, message);
    },
  };
}

function addEntryAttributes(attributes: SpanAttributes, entry: TraceEntry): void {
  if (entry.cost !== undefined) attributes['loopchart.cost'] = entry.cost;
  if (entry.failureKind) {
    attributes['loopchart.failure.kind'] = entry.failureKind;
    attributes['error.type'] = entry.failureKind;
  }
  if (entry.intermittent) attributes['loopchart.intermittent'] = true;
}

/** Lets the process exit while a timer waits (a run that is dropped must not keep Node alive). */
function unrefTimer(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
