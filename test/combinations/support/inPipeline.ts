/**
 * The combination's loop as a stage of a pipeline: alone, after a stage it depends on, or in a
 * layer with two siblings (checked together by a cross-check that passes, flags, throws or
 * hangs) before a stage that needs all three; with no store (answers go through the record) or on a store
 * where the process dies at a random save and a new one resumes. Every pause is answered.
 */
import { isCheckpointError, type LoopConfig, type LoopOutcome } from 'loopchart';
import {
  type CrossCheckContext,
  type PipelineEmitted,
  type PipelinePaused,
  type PipelinePlan,
  type PipelineRunResult,
  type ResumePipelineOptions,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { answerEvent, nthAnswer } from './answerEvent.js';
import { type Combination, CROSS_CHECK_TIMEOUT_MS, deadlineOf } from './combination.js';
import { faultyStore, fromStoreFault } from './faultyStore.js';
import { hang, type Ledger } from './ledger.js';
import { refused } from './onStore.js';
import { type RunState, standIn } from './runState.js';
import { afterExpiry, mortal, openStore, sameRow } from './stores.js';

export async function inPipeline(
  c: Combination,
  config: LoopConfig<unknown, unknown>,
  ledger: Ledger,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const plan = pipelinePlan(c, config, ledger);
  const emitted: PipelineEmitted[] = [];
  const onEvent = (event: PipelineEmitted) => emitted.push(event);
  const kind = c.pipeline.store;
  const opened = kind === 'none' ? undefined : openStore(kind, state);
  const store = opened?.store;
  const runId = globalThis.crypto.randomUUID();
  // loopchart sees the store through the combination's faults; the harness reads it as it is
  const view = store && faultyStore(store, c.faults.store, ledger);
  const resumer = view && afterExpiry(view);
  // a process that died, or a store call that failed or timed out: a new call resumes the run
  const lost = (error: unknown, died = false) => {
    const code = isCheckpointError(error) ? error.code : undefined;
    if (!died && !fromStoreFault(error, ledger.store) && code !== 'store_timeout') throw error;
    state.crashes += 1;
    state.segments += 1;
  };
  const recover = async (): Promise<PipelineRunResult> => {
    for (let tries = 0; tries < 10; tries += 1) {
      state.calls += 1;
      const options = { store: resumer, runId, signal, onEvent };
      try {
        return (await store?.load(runId))
          ? await resumePipeline(plan, options)
          : await runPipeline(plan, 'task', options);
      } catch (error) {
        lost(error);
      }
    }
    throw new Error('the pipeline did not carry on after 10 calls');
  };
  try {
    let result: PipelineRunResult | undefined;
    state.calls += 1;
    if (view) {
      const first = mortal(view, c.crashAtSave);
      try {
        result = await runPipeline(plan, 'task', { store: first.view, runId, signal, onEvent });
      } catch (error) {
        lost(error, first.died());
      }
      result ??= await recover();
    } else {
      result = await runPipeline(plan, 'task', { signal, onEvent });
    }
    let pauses = 0;
    let answers = 0;
    const reasons = new Set<string>();
    while (result.status === 'paused') {
      pauses += 1;
      reasons.add(result.pause.reason);
      downstreamWaits(result, state);
      const paused = result;
      const where: ResumePipelineOptions = resumer
        ? { store: resumer, runId }
        : { record: paused.record };
      const answer = nthAnswer(c.answers, answers++);
      const event = pipelineAnswer(answer, paused);
      state.calls += 1;
      if (answer === 'bad') {
        // refused before any store call can fail: sent on the store as it is
        const plain = store ? { store: afterExpiry(store), runId } : where;
        await refused(store, runId, () =>
          resumePipeline(plan, { ...plain, event: event as never }),
        );
        state.refusals += 1;
        pauses -= 1; // the same pause, still waiting
        continue;
      }
      const before = await store?.load(runId);
      const next = await resumePipeline(plan, {
        ...where,
        event: event as never,
        signal,
        onEvent,
      }).catch(async (error: unknown) => {
        // an answer schema that never answers refuses the answer once the stage's time is up
        if (isCheckpointError(error) && error.code === 'invalid_answer') {
          if (c.faults.schemas !== 'hang') throw error;
          return undefined;
        }
        lost(error);
        return recover();
      });
      if (!next) {
        if (!sameRow(before, await store?.load(runId)))
          state.problems.push('an answer refused after its check hung changed the stored row');
        state.refusals += 1;
        pauses -= 1;
        continue;
      }
      if (event.type === 'pipeline.retry') state.reruns += 1;
      state.segments += 1;
      result = next;
    }
    const announced = emitted.filter((event) => event.type === 'pipeline.paused').length;
    if (state.crashes === 0 && announced !== pauses)
      state.problems.push(`${announced} pipeline.paused events for ${pauses} pauses`);
    if (c.pipeline.shape !== 'layer' && ledger.crossChecks.calls > 0)
      state.problems.push('a cross-check ran for a layer of one stage');
    // a layer the cross-check flagged (or could not check) pauses before anything downstream
    const flags = c.pipeline.crossCheck !== 'valid' && ledger.crossChecks.calls > 0;
    if (result.status === 'completed' && flags !== reasons.has('cross_check_failed'))
      state.problems.push(
        `the ${c.pipeline.crossCheck} cross-check ran ${ledger.crossChecks.calls} times; pauses: ${[...reasons].join()}`,
      );
    state.problems.push(...ledger.crossChecks.problems);
    const report = result.stages.stage;
    if (!report?.outcome || report.status === 'aborted')
      return standIn(state, 'aborted', `the stage ended ${report?.status}`);
    if (report.outcome.trace.length === 0) state.standIn = true; // failed by a crash, never rerun
    return report.outcome;
  } finally {
    opened?.close();
  }
}

/** Nothing downstream starts before a layer settles: at a pause, every later layer is untouched. */
function downstreamWaits(paused: PipelinePaused, state: RunState) {
  for (const [id, stage] of Object.entries(paused.stages)) {
    if (stage.layer > paused.pause.layer && stage.status !== 'not_started') {
      state.problems.push(
        `stage ${id} (layer ${stage.layer}) is ${stage.status} while layer ${paused.pause.layer} is paused (${paused.pause.reason})`,
      );
    }
  }
}

/** A person's answer to a pipeline pause: the loop's own event plus `stage`, or a `pipeline.*` one. */
function pipelineAnswer(
  answer: ReturnType<typeof nthAnswer>,
  paused: PipelinePaused,
): Record<string, unknown> & { type: string } {
  const { pause } = paused;
  if (pause.reason === 'stage_paused') {
    if (answer === 'bad') return { type: 'review.modify', stage: 'stage' };
    const loopAnswer = answerEvent(answer, pause.pending.stage);
    return loopAnswer.type === 'loop.abort'
      ? { type: 'pipeline.abort', reason: 'the person left' }
      : { ...loopAnswer, type: String(loopAnswer.type), stage: 'stage' };
  }
  if (answer === 'bad') return { type: 'pipeline.modify', stage: 'stage' };
  if (answer === 'abort') return { type: 'pipeline.abort', reason: 'the person stopped it' };
  if (answer === 'retry') return { type: 'pipeline.retry' };
  return { type: 'pipeline.continue' };
}

/** The plan of the combination's pipeline shape; companion stages are idempotent and always succeed. */
function pipelinePlan(
  c: Combination,
  config: LoopConfig<unknown, unknown>,
  ledger: Ledger,
): PipelinePlan {
  // the same deadline as the stage: the pipeline waits on its store as long as its longest one
  const companion = (id: string) => ({
    deadlineMs: deadlineOf(c),
    idempotent: true,
    attempt: () => {
      ledger.companions.set(id, (ledger.companions.get(id) ?? 0) + 1);
      return `${id} rows`;
    },
    validate: () => ({ valid: true as const }),
  });
  const stage = { id: 'stage', loop: config, checkpoint: c.pipeline.checkpoint };
  // every shape has the cross-check; only a layer of two or more succeeded stages may call it
  const checked = {
    crossCheckTimeoutMs: CROSS_CHECK_TIMEOUT_MS,
    ...(c.pipeline.crossCheck === 'none'
      ? {}
      : {
          crossCheck: (results: Record<string, unknown>, ctx: CrossCheckContext) =>
            crossCheck(c, ledger, results, ctx),
        }),
  };
  if (c.pipeline.shape === 'single') return { stages: [stage], ...checked };
  if (c.pipeline.shape === 'chain') {
    return {
      stages: [
        { id: 'find', loop: companion('find') },
        { ...stage, dependsOn: ['find'] },
      ],
      ...checked,
    };
  }
  // two siblings succeed whatever the stage does, so the layer's cross-check always runs
  return {
    stages: [
      stage,
      { id: 'sibling', loop: companion('sibling') },
      { id: 'twin', loop: companion('twin') },
      { id: 'report', dependsOn: ['stage', 'sibling', 'twin'], loop: companion('report') },
    ],
    ...checked,
  };
}

function crossCheck(
  c: Combination,
  ledger: Ledger,
  results: Record<string, unknown>,
  { stages, signal }: { stages: readonly string[]; signal: AbortSignal },
) {
  ledger.crossChecks.calls += 1;
  // an `empty` stage succeeded without a candidate: it is named but has no result
  const keys = Object.keys(results);
  if (stages.length < 2 || keys.some((key) => !stages.includes(key)))
    ledger.crossChecks.problems.push(
      `cross-check of [${stages.join()}] given results of [${keys.join()}]`,
    );
  switch (c.pipeline.crossCheck) {
    case 'invalid':
      return {
        valid: false as const,
        error: { severity: 'correctable' as const, message: 'the totals disagree' },
      };
    case 'throw':
      throw new Error('the checker crashed');
    case 'hang':
      return hang(ledger, 'crossCheck', signal);
    default:
      return { valid: true as const };
  }
}
