/**
 * A pipeline whose writer dies mid-stage, in one process on simulated time (as crashedWriter.ts
 * does for a loop): two stages (a chain, or a layer of two) of generated loops, driven until the
 * generated stage's step is in flight (or its retry wait), then abandoned; the row it left is
 * copied into the shared store. Every step call is journalled by run, stage, step and number.
 */
import fc from 'fast-check';
import {
  type CheckpointRecord,
  type CheckpointStore,
  type LoopConfig,
  MemoryCheckpointStore,
  transientFailure,
} from 'loopchart';
import { type PipelinePlan, type PipelineRunResult, runPipeline } from 'loopchart/pipeline';
import { CLAIM_TTL_MS, quiet, type Step } from './crashedWriter.js';
import { drive } from './simulatedTime.js';
import { timed } from './stores.js';

export const STAGES = ['a', 'b'] as const;
export type StageId = (typeof STAGES)[number];

export interface StageShape {
  maxRetries: number;
  refine: boolean;
  /** The first attempt the validator accepts (past maxRetries + 1: the stage fails). */
  acceptAt: number;
  idempotent: Record<Step, boolean>;
}

export interface PipelineShape {
  /** `chain`: b after a; `layer`: a and b side by side. */
  layout: 'chain' | 'layer';
  stages: Record<StageId, StageShape>;
}

export interface PipelineCrash {
  stage: StageId;
  at: Step | 'wait';
  nth: number;
}

/** One journalled step call of a pipeline run. */
export interface StageCall {
  runId: string;
  stage: StageId;
  key: string;
  idempotent: boolean;
}

const stageArb: fc.Arbitrary<StageShape> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 2 }),
  refine: fc.boolean(),
  acceptAt: fc.integer({ min: 1, max: 4 }),
  // every step idempotent (the stage may run again) as often as any other mix
  idempotent: fc.oneof(
    fc.constant({ attempt: true, validate: true, refine: true }),
    fc.record({ attempt: fc.boolean(), validate: fc.boolean(), refine: fc.boolean() }),
  ),
});

export const pipelineShapeArb: fc.Arbitrary<PipelineShape> = fc.record({
  layout: fc.constantFrom('chain' as const, 'layer' as const),
  stages: fc.record({ a: stageArb, b: stageArb }),
});

export const pipelineCrashArb: fc.Arbitrary<PipelineCrash> = fc.record({
  stage: fc.constantFrom(...STAGES),
  at: fc.constantFrom('attempt' as const, 'validate' as const, 'refine' as const, 'wait' as const),
  nth: fc.integer({ min: 1, max: 2 }),
});

type Armed = PipelineCrash & { armed: boolean; hit?: () => void };

/** The run a stage's input belongs to: the pipeline's input is its runId. */
const runOf = (input: unknown) => String(input).split('@')[0] as string;

function stageLoop(
  stage: StageId,
  shape: StageShape,
  calls: StageCall[],
  crash?: Armed,
): LoopConfig<string, string> {
  const counts: Record<string, number> = {};
  const dies = (step: Step | 'wait', signal: AbortSignal) => {
    if (!crash?.armed || crash.stage !== stage || crash.at !== step) return null;
    counts[step] = (counts[step] ?? 0) + 1;
    if (counts[step] !== crash.nth) return null;
    crash.armed = false;
    crash.hit?.();
    if (step === 'wait') throw transientFailure('503 Service Unavailable', { effect: 'none' });
    return new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason)),
    );
  };
  const log = (step: Step, input: string, key: string) =>
    calls.push({
      runId: runOf(input),
      stage,
      key: `${runOf(input)}/${stage}/${key}`,
      idempotent: shape.idempotent[step],
    });
  return {
    id: `stage-${stage}`,
    maxRetries: shape.maxRetries,
    idempotent: shape.idempotent,
    retryDelayMs: 2_000,
    deadlineMs: null,
    stall: false,
    attempt: ({ input, attempt, signal }) => {
      log('attempt', input, `a${attempt}`);
      return dies('attempt', signal) ?? dies('wait', signal) ?? `${runOf(input)}@${attempt}`;
    },
    validate: (candidate, { signal }) => {
      log('validate', candidate, `v${candidate.split('@')[1]}`);
      return (
        dies('validate', signal) ??
        (Number(candidate.split('@').at(-1)) >= shape.acceptAt
          ? { valid: true }
          : { valid: false, error: { severity: 'correctable', message: `not yet: ${candidate}` } })
      );
    },
    ...(shape.refine
      ? {
          refine: ({ input, iteration, signal }) => {
            log('refine', input, `r${iteration}`);
            return dies('refine', signal) ?? runOf(input);
          },
        }
      : {}),
  };
}

/** The pipeline of `shape` (id `pipe`); its stages journal into `calls`. */
export function pipelineOf(
  shape: PipelineShape,
  calls: StageCall[],
  crash?: Armed,
): PipelinePlan<string> {
  const input = (_: unknown, ctx: { input: string }) => ctx.input;
  return {
    id: 'pipe',
    stages: [
      { id: 'a', loop: stageLoop('a', shape.stages.a, calls, crash) },
      {
        id: 'b',
        loop: stageLoop('b', shape.stages.b, calls, crash),
        input,
        ...(shape.layout === 'chain' ? { dependsOn: ['a'] } : {}),
      },
    ],
  } as PipelinePlan<string>;
}

/**
 * Runs the pipeline under `pod-a` until it reaches `crash` (or ends first), abandons it, and
 * copies the row it left into `target`: `hit` when it died at `crash`.
 */
export async function crashedPipeline(
  shape: PipelineShape,
  crash: PipelineCrash,
  target: CheckpointStore,
  runId: string,
  calls: StageCall[],
) {
  const live = new MemoryCheckpointStore();
  const clock = { storeCalls: 0 };
  const armed: Armed = { ...crash, armed: true };
  const reached = new Promise<'crash'>((resolve) => (armed.hit = () => resolve('crash')));
  const stop = new AbortController();
  const run = runPipeline(pipelineOf(shape, calls, armed), runId, {
    store: timed(live, clock),
    runId,
    claimOwner: 'pod-a',
    claimTtlMs: CLAIM_TTL_MS,
    signal: stop.signal,
  });
  const first = await drive(Promise.race([run.then(() => 'ended' as const), reached]));
  if (first.value === 'crash') await quiet(() => clock.storeCalls);
  const row = (await live.load(runId)) as CheckpointRecord;
  stop.abort();
  await drive(run.catch(() => undefined));
  await target.save({ ...row, seq: 1 });
  return { row: (await target.load(runId)) as CheckpointRecord, hit: first.value === 'crash' };
}

/** The same pipeline run by a writer that never dies: what a recovered run should come to. */
export async function uncrashedPipeline(shape: PipelineShape, runId: string) {
  const store = new MemoryCheckpointStore();
  const result = await drive(runPipeline(pipelineOf(shape, []), runId, { store, runId }));
  return result.value as PipelineRunResult;
}
