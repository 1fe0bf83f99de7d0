import { type Context, context, trace } from '@opentelemetry/api';
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
import { plainLoop } from './plainLoop.js';
import {
  attempt,
  ITERATIONS_PER_LOOP,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
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
  // the floor for "on": the plain while loop with the same spans (one per run and step), so the
  // difference is what the SDK itself charges for them, whatever library makes them
  const plainSpans = plainLoopWithSpans(tracer);
  const impls = [off, direct, on, layer, events, plainLoop, plainSpans];
  const micros = await sequentialMicros(
    impls,
    ctx.quick
      ? { rounds: 2, timeMs: 100, warmupMs: 300 }
      : { rounds: 8, timeMs: 150, warmupMs: 1_500 },
  );
  await provider.forceFlush();
  await provider.shutdown();
  ctx.log(`tracing rows: done (${exporter.spans} spans exported)`);
  const baseOf = (impl: LoopImplementation) =>
    micros.get(impl === plainSpans ? plainLoop.name : off.name);
  return impls.map((impl) => {
    const m = micros.get(impl.name);
    const base = baseOf(impl);
    const share = (a?: number, b?: number) =>
      a === undefined || b === undefined ? undefined : Number(((a / b - 1) * 100).toFixed(1));
    return {
      run: impl.name,
      'seq µs/iter': m ? Number(m.wall.toFixed(1)) : undefined,
      '+% vs off': impl === plainLoop ? undefined : share(m?.wall, base?.wall),
      '+% by CPU': impl === plainLoop ? undefined : share(m?.cpu, base?.cpu),
      '+µs per loop': impl === plainLoop || !m || !base ? undefined : perLoop(m.wall - base.wall),
      target: impl === on ? '≤ 15%' : '—',
      met: impl === on ? ((share(m?.wall, base?.wall) ?? 99) <= 15 ? 'yes' : 'NO') : '—',
    };
  });
}

const perLoop = (microsPerIteration: number) =>
  Number((microsPerIteration * ITERATIONS_PER_LOOP).toFixed(1));

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
