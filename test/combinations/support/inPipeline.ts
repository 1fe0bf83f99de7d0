/**
 * The combination's loop as a stage of a pipeline: alone, after a stage it depends on, or in a
 * layer with two siblings (checked together by a cross-check that passes, flags, throws or
 * hangs) before a stage that needs all three; with no store (answers go through the record) or on a store
 * where the process dies at a random save and a new one resumes. Every pause is answered.
 */
import type { LoopConfig, LoopOutcome } from 'loopchart';
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
import { type Combination, CROSS_CHECK_TIMEOUT_MS } from './combination.js';
import { hang, type Ledger } from './ledger.js';
import { refused } from './onStore.js';
import { type RunState, standIn } from './runState.js';
import { afterExpiry, mortal, openStore } from './stores.js';

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
  const resumer = store && afterExpiry(store);
  try {
    let result: PipelineRunResult | undefined;
    state.calls += 1;
    if (store) {
      const first = mortal(store, c.crashAtSave);
      try {
        result = await runPipeline(plan, 'task', { store: first.view, runId, signal, onEvent });
      } catch (error) {
        if (!first.died()) throw error;
        state.crashes += 1;
        state.segments += 1;
      }
      if (result === undefined) {
        state.calls += 1;
        const options = { store: resumer, runId, signal, onEvent };
        result = (await store.load(runId))
          ? await resumePipeline(plan, options)
          : await runPipeline(plan, 'task', options);
      }
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
        await refused(store, runId, () =>
          resumePipeline(plan, { ...where, event: event as never }),
        );
        state.refusals += 1;
        pauses -= 1; // the same pause, still waiting
        continue;
      }
      if (event.type === 'pipeline.retry') state.reruns += 1;
      state.segments += 1;
      result = await resumePipeline(plan, { ...where, event: event as never, signal, onEvent });
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
  const companion = (id: string) => ({
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
