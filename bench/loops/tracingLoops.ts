import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { loopMachineFor, runLoop } from 'loopchart';
import { createActor, toPromise } from 'xstate';
import type { BenchContext } from '../harness/BenchSection.js';
import { config, implementation } from './loopchartLoop.js';
import { sequentialMicros } from './measure.js';

/** Drops every span: what is measured is creating and ending them, not shipping them. */
class NoopExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The loops bench's tracing rows: `runLoop` with nothing to observe (off), the same machine run
 * without `runLoop` (the floor off is held to), with the API's no-op tracer (loopchart's own
 * share of tracing), with a real
 * OpenTelemetry SDK tracer whose spans go to a no-op exporter through the batch processor (on),
 * and with an `onEvent` that does nothing; each one loop at a time, interleaved.
 */
export async function tracingRows(ctx: BenchContext) {
  const exporter = new NoopExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 65_536 })],
  });
  const tracer = provider.getTracer('bench');
  const off = implementation('tracing off', (task) => runLoop(config, task));
  const on = implementation('tracing on (no-op exporter)', (task) =>
    runLoop(config, task, { tracer }),
  );
  // no global provider is registered in the bench, so this is the API's no-op tracer
  const apiNoop = trace.getTracer('bench');
  const layer = implementation("tracing on, the API's no-op tracer", (task) =>
    runLoop(config, task, { tracer: apiNoop }),
  );
  const events = implementation('onEvent (no-op)', (task) =>
    runLoop(config, task, { onEvent: () => {} }),
  );
  // the floor for "off": the same machine run by hand, with none of runLoop's option handling
  const direct = implementation('actor by hand (no runLoop)', (task) =>
    toPromise(createActor(loopMachineFor(config), { input: { input: task } }).start()),
  );
  const impls = [off, direct, on, layer, events];
  const micros = await sequentialMicros(
    impls,
    ctx.quick
      ? { rounds: 2, timeMs: 100, warmupMs: 300 }
      : { rounds: 8, timeMs: 150, warmupMs: 1_500 },
  );
  await provider.forceFlush();
  await provider.shutdown();
  ctx.log(`tracing rows: done (${exporter.spans} spans exported)`);
  const base = micros.get(off.name);
  return impls.map((impl) => {
    const m = micros.get(impl.name);
    const share = (a?: number, b?: number) =>
      a === undefined || b === undefined ? undefined : Number(((a / b - 1) * 100).toFixed(1));
    return {
      run: impl.name,
      'seq µs/iter': m ? Number(m.wall.toFixed(1)) : undefined,
      '+% vs off': share(m?.wall, base?.wall),
      '+% by CPU': share(m?.cpu, base?.cpu),
      target: impl === on ? '≤ 15%' : '—',
      met: impl === on ? ((share(m?.wall, base?.wall) ?? 99) <= 15 ? 'yes' : 'NO') : '—',
    };
  });
}
