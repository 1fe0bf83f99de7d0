import type { AnyActorRef } from 'xstate';
import { loadOpenTelemetry } from '../../adapters/telemetry/loadOpenTelemetry.js';
import { type LoopSpans, loopSpans } from '../../adapters/telemetry/loopSpans.js';
import type { SpanTracer } from '../../adapters/telemetry/spanTypes.js';
import type { RunEvent } from '../../core/chart/runEvents.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { watchLoopActor } from './observeLoop.js';

/** The observing options of a run: typed events and OpenTelemetry spans. */
export interface ObserveOptions<C = unknown> {
  /**
   * Called with each event of the run, in order: `step.started`, then `step.finished` and
   * `decision` (exactly the trace's entries), `pause`, `outcome`. An `onEvent` that throws never
   * affects the run; its error is dropped.
   */
  onEvent?: (event: RunEvent<C>) => void;
  /**
   * An OpenTelemetry tracer (`trace.getTracer('my-app')`): the run gets a span, each step a
   * child span, under the caller's active span. Without one nothing is traced or loaded.
   */
  tracer?: SpanTracer;
}

/** Checks `onEvent` and `tracer`; throws `LoopConfigError` naming the field. */
export function checkObserveOptions(options: { onEvent?: unknown; tracer?: unknown }): void {
  const problems: string[] = [];
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
    problems.push('  - onEvent: must be a function (event) => void');
  }
  const { tracer } = options;
  if (
    tracer !== undefined &&
    (typeof tracer !== 'object' ||
      tracer === null ||
      typeof (tracer as { startSpan?: unknown }).startSpan !== 'function')
  ) {
    problems.push("  - tracer: must be an OpenTelemetry Tracer (trace.getTracer('my-app'))");
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid run options\n${problems.join('\n')}`);
  }
}

/**
 * Refuses to observe a loop whose trace is off: its step and decision events are read from the
 * trace, so `onEvent` and the spans would see only starts and the outcome.
 */
export function checkObservable(
  options: { onEvent?: unknown; tracer?: unknown },
  settings: { trace: boolean },
): void {
  if (settings.trace || (options.onEvent === undefined && options.tracer === undefined)) return;
  throw new LoopConfigError(
    "loopchart: invalid run options\n  - onEvent, tracer: need the loop's trace (the config sets trace: false, so no step or decision would be reported)",
  );
}

/** What a runner wires into one run; undefined when the caller observes nothing. */
export interface RunWatch {
  /** Runs `start` (which starts the actor) with the actor watched and the run span active. */
  watch<T>(actor: AnyActorRef, restored: boolean, start: () => Promise<T>): Promise<T>;
  /** Reports a run that ended before any actor started (aborted before it began). */
  settle(outcome: LoopOutcome<unknown>): void;
}

/**
 * Checks the observing options of one run and prepares its watch: undefined (at no cost) when
 * neither `onEvent` nor `tracer` is given; with a tracer, `@opentelemetry/api` is loaded first
 * (once per process).
 */
export function watchRun(
  options: { onEvent?: unknown; tracer?: unknown },
  loopId: string,
): Promise<RunWatch> | undefined {
  checkObserveOptions(options);
  if (options.onEvent === undefined && options.tracer === undefined) return undefined;
  return prepareWatch(options as ObserveOptions<never>, loopId);
}

async function prepareWatch(options: ObserveOptions<never>, loopId: string): Promise<RunWatch> {
  const { tracer } = options;
  const onEvent = options.onEvent as ((event: RunEvent) => void) | undefined;
  const spans = tracer ? startSpans(tracer, await loadOpenTelemetry(), loopId) : undefined;
  // an observer (a throwing onEvent, a broken tracer) never changes the run it observes
  const deliver = (event: RunEvent) => {
    try {
      spans?.record(event);
    } catch {}
    try {
      onEvent?.(event);
    } catch {}
  };
  return {
    watch(actor, restored, start) {
      // how the run ends (its pause or its outcome) is reported once the run has it for good: with
      // a store, once the checkpoint is saved (a run whose save fails rejects and reports none);
      // without one, a pause nobody can answer ends aborted, and only that is reported
      let ended: RunEvent | undefined;
      const subscription = watchLoopActor(actor, restored, (event) => {
        if (event.type === 'outcome' || event.type === 'pause') ended = event;
        else deliver(event);
      });
      const finish = () => subscription.unsubscribe();
      return within(spans, start).then(
        (result) => {
          finish();
          // a run its deadline ended while a save was pending reports the outcome it settled with
          const unsaved = (result as { error?: { waitingFor?: unknown } } | null)?.error
            ?.waitingFor;
          if (unsaved) deliver({ type: 'outcome', outcome: result as LoopOutcome });
          else if (ended) deliver(ended);
          return result;
        },
        (error: unknown) => {
          finish();
          try {
            spans?.fail(error);
          } catch {}
          throw error;
        },
      );
    },
    settle(outcome) {
      deliver({ type: 'outcome', outcome });
    },
  };
}

function startSpans(...args: Parameters<typeof loopSpans>): LoopSpans | undefined {
  try {
    return loopSpans(...args);
  } catch {
    return undefined;
  }
}

function within<T>(spans: LoopSpans | undefined, start: () => Promise<T>): Promise<T> {
  const api = spans?.api;
  return api ? api.context.with(spans.context, start) : start();
}
