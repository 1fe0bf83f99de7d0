// The few OpenTelemetry API shapes loopchart uses, written out so that no published type imports
// `@opentelemetry/api` (an optional peer): an OpenTelemetry `Tracer` satisfies `SpanTracer`.

export type SpanAttributes = Record<string, string | number | boolean>;

/** The part of an OpenTelemetry `Span` loopchart calls. */
export interface LoopSpan {
  setAttributes(attributes: SpanAttributes): unknown;
  addEvent(name: string, attributes?: SpanAttributes, time?: number): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}

/** The part of an OpenTelemetry `Tracer` loopchart calls: `trace.getTracer('my-app')` is one. */
export interface SpanTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: SpanAttributes; startTime?: number },
    context?: unknown,
  ): LoopSpan;
}

/** The part of `@opentelemetry/api` loopchart calls, to parent spans. */
export interface OpenTelemetryApi {
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  trace: { setSpan(context: unknown, span: LoopSpan): unknown };
}

export const SPAN_KIND_INTERNAL = 0;
export const STATUS_ERROR = 2;
