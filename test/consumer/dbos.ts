// Loops and a pipeline as DBOS workflows, answered from another process.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { expectTypeOf } from 'expect-type';
import type { LoopConfig, PendingRequest } from 'loopchart';
import { type DbosLoop, isDbosRunError, registerLoop, registerPipeline } from 'loopchart/dbos';
import { definePipeline } from 'loopchart/pipeline';

const shout: LoopConfig<string, string> = {
  review: { beforeProceed: true },
  attempt: ({ input }) => input.toUpperCase(),
  validate: () => ({ valid: true }),
};
const loop = registerLoop(shout, { name: 'shout' });
expectTypeOf(loop).toEqualTypeOf<DbosLoop<string, string>>();

const plan = definePipeline<string>()
  .stage('shout', { loop: shout })
  .stage('count', {
    dependsOn: ['shout'],
    input: (results) => results.shout ?? '',
    loop: { attempt: ({ input }) => input.length, validate: () => ({ valid: true }) },
  })
  .plan();
const pipeline = registerPipeline(plan, { name: 'shouting' });

export async function serve(): Promise<void> {
  await DBOS.launch();
  const handle = await loop.start('hello', { workflowID: 'w1' });
  const pause = await loop.pending('w1');
  if (pause) {
    // probe: pending() candidates carry the loop's candidate type
    expectTypeOf(pause.pending).toEqualTypeOf<PendingRequest<string>>();
    if (pause.pending.kind === 'review') {
      await loop.answer(
        'w1',
        { type: 'review.modify', candidate: `${pause.pending.candidate}!` },
        { pause: pause.pause },
      );
    }
  }
  const outcome = await handle.getResult();
  if (outcome.status === 'proceed') expectTypeOf(outcome.candidate).toEqualTypeOf<string>();

  const run = await pipeline.start('hi', { workflowID: 'p1' });
  const waiting = await pipeline.pending('p1');
  if (waiting?.pending.reason === 'stage_paused') {
    expectTypeOf(waiting.pending.stages).toEqualTypeOf<('shout' | 'count')[]>();
    await pipeline.answer('p1', { type: 'review.continue', stage: 'shout' });
  }
  const result = await run.getResult();
  void result.results.count?.toFixed();
  await DBOS.shutdown();
}

export async function wrongAnswers(): Promise<void> {
  try {
    // probe: an answer must fit the loop's types
    // @ts-expect-error TS2322 the candidate of a string loop is a string
    await loop.answer('w1', { type: 'review.modify', candidate: 42 });
    // @ts-expect-error TS2345 review.modify needs an input or a candidate
    await loop.answer('w1', { type: 'review.modify' });
    // @ts-expect-error TS2322 the count stage takes a string
    await pipeline.answer('p1', { type: 'pipeline.modify', stage: 'count', input: 1 });
  } catch (error) {
    if (!isDbosRunError(error)) throw error;
  }
}
