import { DBOS, type WorkflowHandle } from '@dbos-inc/dbos-sdk';
import { fromPromise, type UnknownActorLogic } from 'xstate';
import type { LoopOutcome } from '../outcome.js';
import { pipelineMachineOf } from '../pipeline/createPipelineMachine.js';
import type { PipelinePause } from '../pipeline/pipelineContext.js';
import type { PipelineEvent } from '../pipeline/pipelineEvents.js';
import type { PipelineOutcome } from '../pipeline/pipelineOutcome.js';
import type { PipelinePlan } from '../pipeline/pipelinePlan.js';
import { resolvePlan } from '../pipeline/resolvePlan.js';
import { checkPipelineAnswer } from './checkPipelineAnswer.js';
import { DbosRunError } from './DbosRunError.js';
import {
  ANSWER_TOPIC,
  type AnswerMessage,
  driveInWorkflow,
  EngineLink,
  type PauseReader,
  type PublishedPause,
} from './driveInWorkflow.js';
import {
  accepted,
  checkName,
  type DbosLoop,
  type DbosStartOptions,
  outcomeOf,
  pendingOf,
  registerLoop,
  waitingPause,
} from './registerLoop.js';

/** A pipeline registered as a DBOS workflow whose stages run as child loop workflows. */
export interface DbosPipeline {
  readonly name: string;
  readonly workflow: (input: unknown) => Promise<PipelineOutcome>;
  /** Each stage's loop workflow, by stage id: answer a stage's own pause through it. */
  readonly stages: Readonly<Record<string, DbosLoop<unknown, unknown>>>;
  start(input: unknown, options?: DbosStartOptions): Promise<WorkflowHandle<PipelineOutcome>>;
  outcome(runId: string): Promise<PipelineOutcome>;
  /** The pipeline's own pause (a failed stage, a rejected layer, a checkpoint), or `null`. */
  pending(runId: string): Promise<PublishedPause<PipelinePause> | null>;
  /** Answers the pipeline's pause; throws `DbosRunError` and sends nothing when it does not fit. */
  answer(runId: string, event: PipelineEvent, options?: { pause?: number }): Promise<void>;
  /** The workflow id of a stage's `run`-th loop run (1 for its first, 2 after a retry …). */
  stageRunId(runId: string, stage: string, run?: number): string;
}

/**
 * Registers a pipeline as a DBOS workflow (before `DBOS.launch()`): its layers run in Kahn's
 * order as in `runPipeline`, each stage's loop as a child workflow of its own (so a stage's steps
 * are journalled, recovered and answered exactly like a loop's), the cross-check as a DBOS step,
 * and the pipeline's pauses wait on workflow messages. Bad plans throw `LoopConfigError`.
 * @example const report = registerPipeline({ stages }, { name: 'report' });
 *          await DBOS.launch();
 *          const outcome = await (await report.start('Q3')).getResult();
 */
export function registerPipeline(plan: PipelinePlan, options: { name: string }): DbosPipeline {
  const name = checkName(options?.name, 'DBOS pipeline');
  const resolved = resolvePlan(plan);
  const stages: Record<string, DbosLoop<unknown, unknown>> = {};
  for (const stage of Object.values(resolved.stages)) {
    const loop = { ...stage.loop, id: stage.loop.id ?? stage.id };
    stages[stage.id] = registerLoop(loop, { name: `${name}.${stage.id}` });
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
    const journalled: PipelinePlan = crossCheck
      ? {
          ...plan,
          crossCheck: (results, ctx) =>
            engine.call(() =>
              DBOS.runStep(async () => crossCheck(results, ctx), {
                name: 'crossCheck',
                retriesAllowed: false,
              }),
            ),
        }
      : plan;
    const actors: Record<string, UnknownActorLogic> = {};
    for (const id of Object.keys(resolved.stages)) actors[`stage:${id}`] = stageActor(id) as never;
    const machine = pipelineMachineOf(resolvePlan(journalled)).provide({ actors } as never);
    const pauses: PauseReader = {
      pendingOf: (snapshot) => (snapshot.context as { pause: PipelinePause }).pause,
      accepts: (event) => accepted(() => checkPipelineAnswer('', event, resolved)),
    };
    return driveInWorkflow<PipelineOutcome>(machine, { input }, pauses, engine);
  };
  const workflow = DBOS.registerWorkflow(run, { name });
  return {
    name,
    workflow,
    stages,
    start: (input, start = {}) => DBOS.startWorkflow(workflow, start)(input),
    outcome: (runId) => outcomeOf<PipelineOutcome>(runId, cancelledPipeline),
    pending: (runId) => pendingOf<PipelinePause>(runId),
    answer: async (runId, event, { pause } = {}) => {
      const current = await waitingPause<PipelinePause>(runId, pause);
      const checked = checkPipelineAnswer(runId, event, resolved);
      await DBOS.send<AnswerMessage>(runId, { event: checked, pause: current.pause }, ANSWER_TOPIC);
    },
    stageRunId,
  };
}

function cancelledPipeline(runId: string): Promise<PipelineOutcome> {
  return Promise.reject(
    new DbosRunError(
      'not_waiting',
      runId,
      `loopchart: pipeline run '${runId}' was cancelled through DBOS`,
    ),
  );
}
