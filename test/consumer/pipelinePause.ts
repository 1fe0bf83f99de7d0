// A typed pipeline whose stage loop pauses for review, answered with the pause's seq.
import { expectTypeOf } from 'expect-type';
import type { MemoryCheckpointStore } from 'loopchart';
import {
  definePipeline,
  type PipelineEvent,
  type PipelineOutcome,
  type PlanResults,
  type PlanStageInputs,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';

interface Brief {
  topic: string;
}

const plan = definePipeline<Brief>({ id: 'article' })
  .stage('draft', {
    loop: {
      review: { beforeProceed: true },
      attempt: ({ input }) => `A note on ${input.topic}`,
      validate: () => ({ valid: true }),
    },
  })
  .stage('score', {
    dependsOn: ['draft'],
    input: (results) => ({ text: results.draft ?? '' }),
    loop: {
      attempt: ({ input }) => input.text.length,
      validate: (score) => (score > 0 ? { valid: true } : { valid: false }),
    },
  })
  .plan({ crossCheck: (results) => (results.draft ? { valid: true } : { valid: false }) });

type Results = PlanResults<typeof plan>;

/** What a caller of this module keeps: the outcome, typed by stage. */
export function report(outcome: PipelineOutcome<Results>): string {
  return `${outcome.results.draft ?? ''} (${outcome.results.score ?? 0})`;
}

export async function writeArticle(store: MemoryCheckpointStore): Promise<string | undefined> {
  const run = await runPipeline(plan, { topic: 'loops' }, { store, runId: 'a1' });
  if (run.status !== 'paused') return report(run);
  // probe: a paused pipeline carries its seq, to answer this pause only
  const seq: number | undefined = run.seq;
  // probe: pause.stages are the plan's stage ids
  expectTypeOf(run.pause.stages).toEqualTypeOf<('draft' | 'score')[]>();
  if (run.pause.reason === 'stage_paused') {
    const pending = run.pause.pending.draft;
    // probe: a stage's pending review carries that stage's candidate type
    if (pending?.kind === 'review') expectTypeOf(pending.candidate).toEqualTypeOf<string>();
  }
  const answer: PipelineEvent<Results, PlanStageInputs<typeof plan>> = {
    type: 'review.modify',
    stage: 'draft',
    candidate: 'A shorter note',
  };
  const next = await resumePipeline(plan, { store, runId: 'a1', event: answer, ifSeq: seq });
  return next.status === 'paused' ? undefined : report(next);
}

export function wrongAnswers(): void {
  void (() =>
    resumePipeline(plan, {
      record: {} as never,
      // probe: pipeline.modify's input is the stage loop's input
      // @ts-expect-error TS2322 the score stage takes { text }, not a number
      event: { type: 'pipeline.modify', stage: 'score', input: 42 },
    }));
  void (() =>
    resumePipeline(plan, {
      record: {} as never,
      // @ts-expect-error TS2322 the draft stage's candidate is a string
      event: { type: 'review.modify', stage: 'draft', candidate: 42 },
    }));
  void (() =>
    resumePipeline(plan, {
      record: {} as never,
      // @ts-expect-error TS2322 review.modify needs an input or a candidate
      event: { type: 'review.modify', stage: 'draft' },
    }));
  void (() =>
    resumePipeline(plan, {
      record: {} as never,
      event: { type: 'pipeline.modify', stage: 'score', input: { text: 'again' } },
    }));
}
