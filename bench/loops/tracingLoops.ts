import { type Context, context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { compileLoop, runLoop } from 'loopchart';
import { createActor, toPromise } from 'xstate';
import type { BenchContext } from '../harness/BenchSection.js';
import { config, implementation } from './loopchartLoop.js';
import { pairedOverhead } from './pairedOverhead.js';
import { plainLoop } from './plainLoop.js';
import {
  attempt,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
  taskFor,
  validate,
} from './workload.js';

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
 * The loops bench's tracing rows, each measured against its baseline in adjacent pairs of
 * segments (`pairedOverhead`). Against `runLoop` with nothing to observe (off): the machine run
 * without `runLoop` (the floor off is held to), an `onEvent` that does nothing, the API's no-op
 * tracer (loopchart's own share of tracing), a real OpenTelemetry SDK tracer whose processor drops
 * every span (what the SDK charges to make them), and one whose spans go through the batch
 * processor to a no-op exporter (on). Against the plain while loop: the same loop with the same
 * spans (what the SDK charges for them whatever library makes them).
 */
export async function tracingRows(ctx: BenchContext) {
  const exporter = new NoopExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 65_536 })],
  });
  const tracer = provider.getTracer('bench');
  const dropping = new BasicTracerProvider({ spanProcessors: [new DroppingProcessor()] });
  const off = implementation('tracing off', (task) => runLoop(config, task));
  const on = implementation('tracing on (no-op exporter)', (task) =>
    runLoop(config, task, { tracer }),
  );
  const made = implementation('tracing on, spans made and dropped', (task) =>
    runLoop(config, task, { tracer: dropping.getTracer('bench') }),
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
  const { chart } = compileLoop(config);
  const direct = implementation('actor by hand (no runLoop)', (task) =>
    toPromise(createActor(chart, { input: { input: task } }).start()),
  );
  // the floor for "on": the plain while loop with the same spans (one per run and step), so the
  // difference is what the SDK itself charges for them, whatever library makes them
  const plainSpans = plainLoopWithSpans(tracer);
  const rows: Array<[LoopImplementation, LoopImplementation]> = [
    [direct, off],
    [events, off],
    [layer, off],
    [made, off],
    [on, off],
    [plainSpans, plainLoop],
  ];
  const options = ctx.quick ? { pairs: 30, loops: 10 } : { pairs: 300, loops: 20 };
  // The JIT keeps optimizing loopchart's code for its first few hundred runs.
  for (const impl of [off, plainLoop, ...rows.map(([impl]) => impl)]) {
    const until = performance.now() + (ctx.quick ? 300 : 1_500);
    for (let n = 0; performance.now() < until; n++) await impl.run(taskFor(n));
  }
  const figures = [];
  for (const [impl, base] of rows) {
    const measured = await pairedOverhead(impl, base, options);
    ctx.log(`tracing rows: ${impl.name}, ${measured.wallPercent}% over ${base.name}`);
    const isOn = impl === on;
    figures.push({
      run: impl.name,
      over: base.name,
      'µs a loop': measured.micros,
      'µs a loop, over': measured.baseMicros,
      '+µs a loop': Number((measured.micros - measured.baseMicros).toFixed(1)),
      '+% wall (median pair)': measured.wallPercent,
      '+% CPU (median pair)': measured.cpuPercent,
      target: isOn ? '≤ 15%' : '—',
      met: isOn ? (measured.wallPercent <= 15 ? 'yes' : 'NO') : '—',
    });
  }
  await provider.forceFlush();
  await provider.shutdown();
  ctx.log(`tracing rows: done (${exporter.spans} spans exported)`);
  return figures;
}

/** A span processor that keeps nothing: spans are made and ended, never held or exported. */
class DroppingProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The plain while loop with a span per run and per step, attributed as loopchart's are. */
function plainLoopWithSpans(tracer: SpanTracerLike): LoopImplementation {
  const step = async <T>(parent: Context, name: string, n: number, work: () => Promise<T> | T) => {
    const attributes = { 'loopchart.step': name, 'loopchart.attempt': n, 'loopchart.iteration': n };
    const span = tracer.startSpan(`loopchart.${name}`, { attributes }, parent);
    const result = await work();
    span.setAttributes({ 'loopchart.decision': 'refine' });
    span.end();
    return result;
  };
  return {
    name: 'plain async while + the same spans',
    async run(task: Task) {
      const run = tracer.startSpan('invoke_workflow plain', {
        attributes: { 'gen_ai.operation.name': 'invoke_workflow' },
      });
      const parent = trace.setSpan(context.active(), run);
      let input = task;
      let retries = 0;
      try {
        while (true) {
          const candidate = await step(parent, 'attempt', retries, () => attempt(input));
          const verdict = await step(parent, 'validate', retries, () => validate(candidate));
          if (verdict.valid || retries >= MAX_RETRIES) return { candidate, iterations: retries };
          const message = verdict.error.message;
          input = await step(parent, 'refine', retries, () => refine(input, message));
          retries++;
        }
      } finally {
        run.setAttributes({ 'loopchart.status': 'proceed' });
        run.end();
      }
    },
  };
}

type SpanTracerLike = ReturnType<BasicTracerProvider['getTracer']>;
