import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Output } from 'ai';
import {
  type CheckpointRecord,
  isCheckpointError,
  isLoopConfigError,
  MemoryCheckpointStore,
  permanentFailure,
  runLoop,
  withCost,
} from 'loopchart';
import { modelSteps } from 'loopchart/ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { AsyncContextManager } from './support/asyncContextManager.js';
import { scriptedModel } from './support/mockModel.js';
import { correctable, valid } from './support/scriptedSteps.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('loopchart-test');

beforeAll(() => {
  context.setGlobalContextManager(new AsyncContextManager());
});
afterAll(() => {
  context.disable();
});
beforeEach(() => exporter.reset());

/** Runs `fn` under a caller span, as an app handling a request would; returns that span's id. */
async function underCallerSpan(fn: () => Promise<unknown>): Promise<string> {
  return tracer.startActiveSpan('handle request', async (span) => {
    await fn();
    span.end();
    return span.spanContext().spanId;
  });
}

const byName = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

describe('OpenTelemetry spans (real SDK, in-memory exporter)', () => {
  it('a refine → proceed run: one run span under the caller, one span per step under it', async () => {
    const config = {
      id: 'drafts',
      maxRetries: 2,
      attempt: ({ attempt }: { attempt: number }) => withCost({ draft: attempt }, 10 * attempt),
      validate: (c: { draft: number }) => (c.draft >= 2 ? valid : correctable('too short')),
    };
    let key: string | undefined;
    const callerId = await underCallerSpan(async () => {
      const outcome = await runLoop(config, 'brief', { tracer });
      expect(outcome.status).toBe('proceed');
      key = outcome.trace[0]?.key;
    });

    const [run] = byName('invoke_workflow drafts');
    expect(run).toBeDefined();
    expect(parentOf(run)).toBe(callerId);
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'drafts',
      'loopchart.status': 'proceed',
      'loopchart.iterations': 1,
      'loopchart.attempts': 2,
      'loopchart.cost': 30,
    });
    expect(run?.status.code).toBe(SpanStatusCode.UNSET);

    const steps = exporter.getFinishedSpans().filter((s) => s.name.startsWith('loopchart.'));
    expect(steps.map((s) => s.name)).toEqual([
      'loopchart.attempt',
      'loopchart.validate',
      'loopchart.refine',
      'loopchart.attempt',
      'loopchart.validate',
    ]);
    for (const step of steps) {
      expect(parentOf(step)).toBe(run?.spanContext().spanId);
      expect(step.spanContext().traceId).toBe(run?.spanContext().traceId);
    }
    const [attempt1, validate1, , attempt2, validate2] = steps;
    expect(attempt1?.attributes).toMatchObject({
      'loopchart.step': 'attempt',
      'loopchart.attempt': 1,
      'loopchart.key': key,
      'loopchart.cost': 10,
    });
    expect(attempt2?.attributes).toMatchObject({ 'loopchart.attempt': 2, 'loopchart.cost': 20 });
    expect(validate1?.attributes['loopchart.decision']).toBe('refine');
    expect(validate2?.attributes['loopchart.decision']).toBe('proceed');
    // every decision followed a step, so it is that step's attribute, not a run event
    expect(run?.events).toEqual([]);
  });

  it('a failed run: the run span and the failed step carry the error status and type', async () => {
    await underCallerSpan(() =>
      runLoop(
        {
          id: 'billing',
          attempt: () => {
            throw permanentFailure('the invoice does not exist');
          },
          validate: () => valid,
        },
        'inv-1',
        { tracer },
      ),
    );
    const [run] = byName('invoke_workflow billing');
    expect(run?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringContaining('the invoice does not exist'),
    });
    expect(run?.attributes).toMatchObject({
      'loopchart.status': 'permanent_failure',
      'error.type': 'permanent_failure',
      'loopchart.failure.kind': 'permanent',
    });
    const [attempt] = byName('loopchart.attempt');
    expect(attempt?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt?.attributes).toMatchObject({
      'error.type': 'permanent',
      'loopchart.failure.kind': 'permanent',
      'loopchart.decision': 'permanent_failure',
    });
  });

  it('step code runs with the run span active, so its own spans nest under the run', async () => {
    let activeInStep: string | undefined;
    await underCallerSpan(() =>
      runLoop(
        {
          id: 'nested',
          attempt: () => {
            activeInStep = trace.getActiveSpan()?.spanContext().spanId;
            return 'x';
          },
          validate: () => valid,
        },
        'in',
        { tracer },
      ),
    );
    const [run] = byName('invoke_workflow nested');
    expect(activeInStep).toBe(run?.spanContext().spanId);
  });

  it("the AI SDK's own spans (experimental_telemetry) nest under the run span", async () => {
    const { model } = scriptedModel(['{"n": 1}']);
    const steps = modelSteps({
      call: () => ({
        model,
        output: Output.object({ schema: z.object({ n: z.number() }) }),
        prompt: 'a number',
        experimental_telemetry: { isEnabled: true, tracer },
      }),
    });
    await underCallerSpan(() => runLoop({ id: 'withModel', ...steps }, 'in', { tracer }));
    const [run] = byName('invoke_workflow withModel');
    const [generate] = byName('ai.generateText');
    expect(generate).toBeDefined();
    expect(generate?.spanContext().traceId).toBe(run?.spanContext().traceId);
    expect(parentOf(generate)).toBe(run?.spanContext().spanId);
  });

  it('a long run has its step spans made as it goes, a quick one when it ends', async () => {
    const stepSpans = () =>
      exporter
        .getFinishedSpans()
        .filter((s) => s.name.startsWith('loopchart.'))
        .map((s) => s.name);
    const seenInValidation: string[][] = [];
    // the held spans wait on a timer: a second of it passes on fake timers, not on the wall clock
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const outcome = await runLoop(
      {
        id: 'slow',
        maxRetries: 1,
        attempt: ({ attempt }: { attempt: number }) => attempt,
        validate: async (n: number) => {
          if (n > 1) return valid;
          seenInValidation.push(stepSpans());
          await vi.advanceTimersByTimeAsync(1_100);
          seenInValidation.push(stepSpans());
          return correctable('again');
        },
      },
      'in',
      { tracer },
    );
    expect(outcome.status).toBe('proceed');
    // the first attempt's span is held while the run is quick, and made a second after it closed
    expect(seenInValidation).toEqual([[], ['loopchart.attempt']]);
    expect(stepSpans()).toEqual([
      'loopchart.attempt',
      'loopchart.validate',
      'loopchart.refine',
      'loopchart.attempt',
      'loopchart.validate',
    ]);
  });

  it('without a tracer nothing is traced', async () => {
    await underCallerSpan(() => runLoop({ attempt: () => 1, validate: () => valid }, 'in'));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['handle request']);
  });

  it('a tracer that throws never changes the run', async () => {
    const broken = {
      startSpan() {
        throw new Error('exporter down');
      },
    };
    const outcome = await runLoop({ attempt: () => 1, validate: () => valid }, 'in', {
      tracer: broken,
    });
    expect(outcome.status).toBe('proceed');
  });

  it("a tracer that throws on step spans never replaces a failed save's error", async () => {
    const span = { setAttributes() {}, addEvent() {}, setStatus() {}, end() {} };
    const brokenOnSteps = {
      startSpan(name: string) {
        if (name.startsWith('loopchart.')) throw new Error('exporter down');
        return span;
      },
    };
    class FailingStore extends MemoryCheckpointStore {
      saves = 0;
      override async save(record: CheckpointRecord): Promise<void> {
        if (++this.saves >= 4) throw new Error('disk I/O error');
        await super.save(record);
      }
    }
    const error = await runLoop(
      { attempt: () => 'draft', validate: () => correctable('again'), maxRetries: 3 },
      'in',
      { tracer: brokenOnSteps, store: new FailingStore(), runId: 'traced' },
    ).catch((e: unknown) => e);
    expect(isCheckpointError(error)).toBe(true);
    expect((error as Error).message).toMatch(/disk I\/O error/);
  });

  it('a tracer that is not one is a config error naming the field', async () => {
    const error = await runLoop({ attempt: () => 1, validate: () => valid }, 'in', {
      tracer: {} as never,
    }).catch((e) => e);
    expect(isLoopConfigError(error)).toBe(true);
    expect(error.message).toContain(
      "tracer: must be an OpenTelemetry Tracer (trace.getTracer('my-app'))",
    );
  });
});
