import type { OpenTelemetryApi } from './spanTypes.js';

let loaded: Promise<OpenTelemetryApi | undefined> | undefined;

/**
 * `@opentelemetry/api`, imported the first time a run is given a tracer (never otherwise), or
 * undefined when it is not installed: spans are then started without a parent.
 */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  loaded ??= import('@opentelemetry/api').then(
    (api) => api as unknown as OpenTelemetryApi,
    () => undefined,
  );
  return loaded;
}
