import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopEvent } from '../../core/chart/loopEvents.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import type { LoopStatus } from '../../core/vocabulary/statuses.js';
import type { Verdict } from '../../core/vocabulary/validation.js';
import type { StageId, StageResults } from './pipelinePlan.js';
import type { ResolvedPlan } from './resolvePlan.js';

/** Where a stage stands. `not_started` also covers a stage reset by `pipeline.retry`/`modify`. */
export type StageStatus =
  | 'not_started'
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'skipped'
  | 'aborted'
  | 'paused';

/** A stage whose loop waits for a person: its loop's snapshot, the question, and the answer once given. */
export interface StagePause {
  /** The stage loop's persisted snapshot (JSON), restored when the answer comes. */
  snapshot: unknown;
  pending: PendingRequest;
  /** The answer, set until the stage's loop is restored and takes it. */
  answer?: LoopEvent;
}

/** What happened to one stage (JSON): kept in the context, persisted, and reported in the outcome. */
export interface StageReport {
  status: StageStatus;
  /** The layer the stage runs in, 1 for the stages without dependencies. */
  layer: number;
  /** How many times its loop was started (1 + each retry or modification). */
  runs: number;
  /** Refine cycles, summed over all runs. */
  iterations: number;
  /** Attempt invocations, summed over all runs. */
  attempts: number;
  /** Cost reported by its steps, summed over all runs. */
  cost: number;
  /** The status of the latest run's loop. */
  loopStatus?: LoopStatus;
  /** The latest run's loop outcome. */
  outcome?: LoopOutcome;
  /** The input of the latest run. */
  input?: unknown;
  /** Why it was skipped, aborted or could not start. */
  note?: string;
  /** A checkpoint stage whose result a person approved. */
  reviewed?: boolean;
  /** The input a `pipeline.modify` set for the next run. */
  modifiedInput?: { value: unknown };
  /** The stage's loop waits for a person (status `paused`). */
  paused?: StagePause;
}

/** The cross-stage check of one layer. */
export interface LayerCheck {
  verdict?: Verdict;
  /** The checker threw: its message. */
  error?: string;
  /** A person chose `pipeline.continue` past a failed check. */
  overridden: boolean;
  runs: number;
}

/**
 * Why a pipeline waits for a person, and what about. `R` is each stage's candidate type by id
 * (`PlanResults<typeof plan>`): stage ids, outcomes, questions and results are typed by it.
 */
export type PipelinePause<R extends Record<string, unknown> = Record<string, unknown>> =
  | {
      reason: 'stage_failed';
      layer: number;
      stages: StageId<R>[];
      outcomes: string extends StageId<R>
        ? Record<string, LoopOutcome>
        : { [K in StageId<R>]?: LoopOutcome<R[K]> };
      message: string;
    }
  | {
      reason: 'cross_check_failed';
      layer: number;
      stages: StageId<R>[];
      verdict?: Verdict;
      error?: string;
      message: string;
    }
  | {
      reason: 'stage_paused';
      layer: number;
      stages: StageId<R>[];
      /** Each paused stage's question or review request (a review's candidate is the stage's). */
      pending: string extends StageId<R>
        ? Record<string, PendingRequest>
        : { [K in StageId<R>]?: PendingRequest<R[K]> };
      message: string;
    }
  | {
      reason: 'checkpoint';
      layer: number;
      stages: StageId<R>[];
      results: StageResults<R>;
      message: string;
    };

/** The pipeline machine's context: JSON-safe; it is also the record a pipeline persists. */
export interface PipelineContext {
  /** Fingerprint of the plan's shape, checked when a record is restored. */
  planKey: string;
  input: unknown;
  stages: Record<string, StageReport>;
  /** Cross-stage checks by layer number. */
  checks: Record<string, LayerCheck>;
  pause: PipelinePause | undefined;
  abortReason: string | undefined;
}

/** The pipeline machine's input: the pipeline's input, or a saved context to continue from. */
export interface PipelineMachineInput {
  input?: unknown;
  /** A context saved earlier (`PipelineRecord.context`); finished stages are not run again. */
  restore?: PipelineContext;
}

export function initialPipelineContext(
  plan: ResolvedPlan,
  { input, restore }: PipelineMachineInput,
): PipelineContext {
  if (restore) return restoredContext(plan, restore);
  return {
    planKey: plan.key,
    input,
    stages: Object.fromEntries(
      plan.layers.flatMap((ids, index) => ids.map((id) => [id, freshStage(index + 1)])),
    ),
    checks: {},
    pause: undefined,
    abortReason: undefined,
  };
}

function freshStage(layer: number): StageReport {
  return { status: 'not_started', layer, runs: 0, iterations: 0, attempts: 0, cost: 0 };
}

/**
 * A stage that was running when the record was saved runs again from its start if every step of
 * its loop is idempotent; otherwise it is failed as `unknown_outcome` and the pipeline pauses, so a
 * person decides whether a second run's side effects are acceptable.
 */
function restoredContext(plan: ResolvedPlan, saved: PipelineContext): PipelineContext {
  const stages = Object.fromEntries(
    Object.entries(saved.stages).map(([id, stage]) => {
      if (stage.status !== 'running') return [id, stage];
      if (plan.stages[id]?.rerunnable) return [id, { ...stage, status: 'not_started' as const }];
      const message = `stage '${id}' was running when the pipeline was saved; its loop is not declared idempotent, so it was not run again`;
      return [
        id,
        { ...stage, status: 'failed' as const, ...failedRun('unknown_outcome', message) },
      ];
    }),
  );
  return { ...saved, stages, pause: undefined };
}

/** The loop outcome of a stage that failed before or outside its loop (input builder, crash). */
export function failedRun(
  status: 'unknown_outcome' | 'permanent_failure',
  message: string,
): Pick<StageReport, 'loopStatus' | 'outcome' | 'note'> {
  const outcome = {
    status,
    ok: false,
    iterations: 0,
    attempts: 0,
    cost: 0,
    rationale: message,
    trace: [],
    partial: undefined,
    error: { kind: status, state: 'stage', attempts: 0, message },
  } satisfies LoopOutcome;
  return { loopStatus: status, outcome, note: message };
}
