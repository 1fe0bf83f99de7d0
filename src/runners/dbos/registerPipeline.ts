import { DBOS, type WorkflowHandle } from '@dbos-inc/dbos-sdk';
import { fromPromise, type UnknownActorLogic } from 'xstate';
import type { PendingRequest } from '../../core/chart/loopContext.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { checkPipelineAnswer } from '../pipeline/checkPipelineAnswer.js';
import { pipelineMachineOf } from '../pipeline/createPipelineMachine.js';
import type { PipelinePause } from '../pipeline/pipelineContext.js';
import { initialPipelineContext, type StageReport } from '../pipeline/pipelineContext.js';
import type { PipelineEvent, StageAnswer } from '../pipeline/pipelineEvents.js';
import type { PipelineOutcome } from '../pipeline/pipelineOutcome.js';
import { buildPipelineOutcome } from '../pipeline/pipelineOutcome.js';
import type { PipelinePlan, StageId } from '../pipeline/pipelinePlan.js';
import { recordOutcome } from '../pipeline/pipelineUpdates.js';
import type { ResolvedPlan } from '../pipeline/resolvePlan.js';
import { resolvePlan } from '../pipeline/resolvePlan.js';
import { STAGE_ANSWER_TYPES, stagePause } from '../pipeline/stagePause.js';
import { DbosRunError, refused } from './DbosRunError.js';
import {
  ANSWER_TOPIC,
  type AnswerMessage,
  driveInWorkflow,
  EngineLink,
  type PauseReader,
  type PublishedPause,
} from './driveInWorkflow.js';
import {
  checkName,
  type DbosLoop,
  type DbosLoopAnswer,
  type DbosStartOptions,
  outcomeOf,
  pendingOf,
  registerLoop,
  waitingPause,
} from './registerLoop.js';

/**
 * A pipeline registered as a DBOS workflow whose stages run as child loop workflows, typed by the
 * plan: its input `PI`, each stage's candidate `R` and each stage loop's input `SI`, by id.
 */
export interface DbosPipeline<
  PI = unknown,
  R extends Record<string, unknown> = Record<string, unknown>,
  SI extends Record<string, unknown> = Record<string, unknown>,
> {
  readonly name: string;
  readonly workflow: (input: PI) => Promise<PipelineOutcome<R>>;
  /** Each stage's loop workflow, by stage id: answer a stage's own pause through it. */
  readonly stages: { readonly [K in StageId<R>]: DbosLoop<StageInput<SI, K>, R[K]> };
  start(input: PI, options?: DbosStartOptions): Promise<WorkflowHandle<PipelineOutcome<R>>>;
  outcome(runId: string): Promise<PipelineOutcome<R>>;
  /**
   * What the pipeline waits for now, or `null`: its own pause (a failed stage, a rejected layer, a
   * checkpoint), or, while stage loops wait for a person, a `stage_paused` pause (state
   * `stagePaused`, numbered 0: each stage loop numbers its own pauses) with each one's question.
   */
  pending(runId: string): Promise<PublishedPause<PipelinePause<R>> | null>;
  /**
   * Answers the pipeline's pause, or with a `stage`'s loop answer (`review.*`,
   * `clarification.answer`) that stage's pause, checked there (`pause` then numbers the stage
   * loop's pauses). Throws `DbosRunError` and sends nothing when it does not fit.
   */
  answer(
    runId: string,
    event: PipelineEvent<R, SI>,
    options?: { pause?: number | undefined },
  ): Promise<void>;
  /** Cancels the run and its stage loops through `DBOS.cancelWorkflow`; it then reads as `aborted`. */
  cancel(runId: string): Promise<void>;
  /** The workflow id of a stage's `run`-th loop run (1 for its first, 2 after a retry …). */
  stageRunId(runId: string, stage: StageId<R>, run?: number): string;
}

type StageInput<SI extends Record<string, unknown>, K extends string> = K extends keyof SI
  ? SI[K]
  : unknown;

/**
 * Registers a pipeline as a DBOS workflow (before `DBOS.launch()`): its layers run in Kahn's
 * order as in `runPipeline`, each stage's loop as a child workflow of its own (so a stage's steps
 * are journalled, recovered and answered exactly like a loop's), the cross-check as a DBOS step,
 * and the pipeline's pauses wait on workflow messages. Bad plans throw `LoopConfigError`.
 * @example const report = registerPipeline({ stages }, { name: 'report' });
 *          await DBOS.launch();
 *          const outcome = await (await report.start('Q3')).getResult();
 */
export function registerPipeline<
  PI,
  R extends Record<string, unknown>,
  SI extends Record<string, unknown>,
>(plan: PipelinePlan<PI, R, SI>, options: { name: string }): DbosPipeline<PI, R, SI> {
  return registerPlainPipeline(plan as PipelinePlan, options) as unknown as DbosPipeline<PI, R, SI>;
}

function registerPlainPipeline(plan: PipelinePlan, options: { name: string }): DbosPipeline {
  const name = checkName(options?.name, 'DBOS pipeline');
  const resolved = resolvePlan(plan);
  const stages: Record<string, DbosLoop<unknown, unknown>> = {};
  for (const stage of Object.values(resolved.stages)) {
    stages[stage.id] = registerLoop(stage.plan, { name: `${name}.${stage.id}` });
  }
  const stageRunId = (runId: string, stage: string, run = 1) => `${runId}.${stage}.${run}`;

  const run = (input: unknown) => {
    const engine = new EngineLink();
    const parent = DBOS.workflowID ?? '';
    const runs = new Map<string, number>();
    // results are collected in the order the stages started, so a replay asks DBOS in that order
    let inOrder: Promise<unknown> = Promise.resolve();
    const stageActor = (id: string) =>
      fromPromise<LoopOutcome, { input: unknown }>(({ input: start }) => {
        const n = (runs.get(id) ?? 0) + 1;
        runs.set(id, n);
        const loop = stages[id] as DbosLoop<unknown, unknown>;
        const handle = engine.call(() =>
          loop.start(start.input, { workflowID: stageRunId(parent, id, n) }),
        );
        const result = inOrder.then(() => handle.then((h) => engine.call(() => h.getResult())));
        inOrder = result.catch(() => {});
        return result;
      });
    const crossCheck = plan.crossCheck;
    const journalled: ResolvedPlan = crossCheck
      ? {
          ...resolved,
          crossCheck: (results, ctx) =>
            engine.call(() =>
              DBOS.runStep(async () => crossCheck(results, ctx), {
                name: 'crossCheck',
                retriesAllowed: false,
              }),
            ),
        }
      : resolved;
    const actors: Record<string, UnknownActorLogic> = {};
    for (const id of Object.keys(resolved.stages)) actors[`stage:${id}`] = stageActor(id) as never;
    const machine = pipelineMachineOf(journalled).provide({ actors } as never);
    const pauses: PauseReader = {
      pendingOf: (snapshot) => (snapshot.context as { pause: PipelinePause }).pause,
      check: (event) =>
        checkPipelineAnswer(resolved, '', event, () => undefined).catch(() => undefined),
    };
    return driveInWorkflow<PipelineOutcome>(machine, { input }, pauses, engine);
  };
  const workflow = DBOS.registerWorkflow(run, { name });
  const pausedStages = (runId: string) => pausedStagesOf(runId, Object.keys(resolved.stages));
  return {
    name,
    workflow,
    stages,
    start: (input, start = {}) => DBOS.startWorkflow(workflow, start)(input),
    outcome: (runId) => outcomeOf<PipelineOutcome>(runId, (id) => cancelledPipeline(id, resolved)),
    pending: async (runId) => {
      const own = await pendingOf<PipelinePause>(runId);
      if (own) return own;
      const paused = await pausedStages(runId);
      if (paused.size === 0) return null;
      const pending: Record<string, PendingRequest> = {};
      for (const [id, { pause }] of paused) pending[id] = pause.pending;
      const [first] = paused.keys();
      const layer = resolved.stages[first as string]?.layer ?? 1;
      return { pause: 0, state: 'stagePaused', pending: stagePause(layer, pending) };
    },
    answer: async (runId, event, { pause } = {}) => {
      const type = (event as { type?: unknown } | null)?.type;
      if ((STAGE_ANSWER_TYPES as readonly unknown[]).includes(type)) {
        const { stage, ...answer } = event as StageAnswer;
        const paused = (await pausedStages(runId)).get(stage);
        if (!paused) {
          throw new DbosRunError(
            'not_waiting',
            runId,
            `loopchart: no stage '${String(stage)}' of pipeline run '${runId}' waits for an answer`,
          );
        }
        const loop = stages[stage] as DbosLoop<unknown, unknown>;
        await loop.answer(paused.runId, answer as DbosLoopAnswer, pause ? { pause } : {});
        return;
      }
      const current = await waitingPause<PipelinePause>(runId, pause);
      const checked = await checkPipelineAnswer(resolved, runId, event, () => undefined).catch(
        refused(runId),
      );
      await DBOS.send<AnswerMessage>(runId, { event: checked, pause: current.pause }, ANSWER_TOPIC);
    },
    cancel: async (runId) => {
      await DBOS.cancelWorkflow(runId);
      const running = await DBOS.listWorkflows({
        parentWorkflowID: runId,
        status: ['PENDING', 'ENQUEUED'],
        loadInput: false,
        loadOutput: false,
      });
      await Promise.all(running.map((child) => DBOS.cancelWorkflow(child.workflowID)));
    },
    stageRunId,
  };
}

/** A stage's loop runs among a pipeline run's child workflows (`<runId>.<stage>.<n>`), by `n`. */
function runsOfStage<W extends { workflowID: string }>(
  children: W[],
  runId: string,
  stage: string,
) {
  const prefix = `${runId}.${stage}.`;
  const numberOf = (child: W) =>
    child.workflowID.startsWith(prefix)
      ? Number(child.workflowID.slice(prefix.length))
      : Number.NaN;
  return children
    .filter((child) => Number.isInteger(numberOf(child)))
    .sort((a, b) => numberOf(a) - numberOf(b));
}

interface PausedStage {
  runId: string;
  pause: PublishedPause<PendingRequest>;
}

/** The stage loops of a pipeline run that wait for a person now, by stage id. */
async function pausedStagesOf(runId: string, ids: readonly string[]) {
  const children = await DBOS.listWorkflows({
    parentWorkflowID: runId,
    status: 'PENDING',
    loadInput: false,
    loadOutput: false,
  });
  const paused = new Map<string, PausedStage>();
  for (const id of ids) {
    const child = runsOfStage(children, runId, id).at(-1);
    const pause = child && (await pendingOf<PendingRequest>(child.workflowID));
    if (child && pause) paused.set(id, { runId: child.workflowID, pause });
  }
  return paused;
}

/**
 * The `aborted` outcome of a pipeline that DBOS cancelled: each stage as its latest loop run
 * ended (a stage still running or waiting counts as aborted).
 */
async function cancelledPipeline(runId: string, plan: ResolvedPlan): Promise<PipelineOutcome> {
  const status = await DBOS.getWorkflowStatus(runId);
  const abortReason = 'the pipeline was cancelled through DBOS';
  let context = {
    ...initialPipelineContext(plan, { input: status?.input?.[0] }),
    abortReason,
  };
  const children = await DBOS.listWorkflows({ parentWorkflowID: runId, loadInput: false });
  for (const id of Object.keys(plan.stages)) {
    const runs = runsOfStage(children, runId, id);
    const latest = runs.at(-1);
    if (!latest) continue;
    const stage = { ...(context.stages[id] as StageReport), runs: runs.length };
    context = { ...context, stages: { ...context.stages, [id]: stage } };
    if (latest.status === 'SUCCESS') {
      context = { ...context, ...recordOutcome(context, id, latest.output as LoopOutcome) };
    } else {
      // a stage loop that waited for a person still publishes its question
      const asked = await pendingOf<PendingRequest>(latest.workflowID);
      const note = asked ? 'aborted while paused' : 'aborted while running';
      const aborted: StageReport = { ...stage, status: 'aborted', note: `${note}: ${abortReason}` };
      context = { ...context, stages: { ...context.stages, [id]: aborted } };
    }
  }
  return buildPipelineOutcome('aborted', context);
}
