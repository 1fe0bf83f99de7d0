import { compileLoop, type LoopConfig } from 'loopchart';
import { certifyLoop, certifyPipeline } from 'loopchart/analysis';
import {
  createPipelineMachine,
  definePipeline,
  type PipelineEvent,
  type PipelineOutcome,
  type PipelinePlan,
  type PipelineRunResult,
  type PlanInput,
  type PlanResults,
  type PlanStageInputs,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';
import { describe, expect, expectTypeOf, it } from 'vitest';

// Checked by `tsc` in `npm test` (typecheck); vitest runs the same plans for real.
interface Order {
  customer: string;
  lines: { sku: string; amount: number }[];
}
interface Ledger {
  customer: string;
  total: number;
}

const valid = { valid: true } as const;

/** order → ledger → report, and a stage that reads both. */
function orderPipeline() {
  return definePipeline<Order>({ id: 'orders' })
    .stage('ledger', {
      loop: {
        attempt: ({ input }) => ({
          customer: input.customer,
          total: input.lines.reduce((sum, line) => sum + line.amount, 0),
        }),
        validate: (ledger) => (ledger.total >= 0 ? valid : { valid: false }),
      },
    })
    .stage('report', {
      dependsOn: ['ledger'],
      input: (results, ctx) => ({ ledger: results.ledger, who: ctx.input.customer }),
      loop: {
        attempt: ({ input }) => `${input.who}: ${input.ledger?.total ?? 'no ledger'}`,
        validate: (text) => (text.length > 0 ? valid : { valid: false }),
      },
    })
    .stage('audit', {
      dependsOn: ['ledger', 'report'],
      loop: {
        attempt: ({ input }) => ({ lines: input.report?.length ?? 0, total: input.ledger?.total }),
        validate: () => valid,
      },
    })
    .plan();
}

const order: Order = {
  customer: 'acme',
  lines: [
    { sku: 'a', amount: 2 },
    { sku: 'b', amount: 3 },
  ],
};

describe('typed pipelines (definePipeline)', () => {
  it('types results by stage id with each stage candidate, and runs', async () => {
    const plan = orderPipeline();
    const run = await runPipeline(plan, order);
    expectTypeOf(run).toEqualTypeOf<
      PipelineRunResult<{
        ledger: Ledger;
        report: string;
        audit: { lines: number; total: number | undefined };
      }>
    >();
    expectTypeOf(run.results.ledger).toEqualTypeOf<Ledger | undefined>();
    expectTypeOf(run.results.report).toEqualTypeOf<string | undefined>();
    // @ts-expect-error no stage is called 'ledgr'
    void run.results.ledgr;
    expect(run.status).toBe('completed');
    expect(run.results).toEqual({
      ledger: { customer: 'acme', total: 5 },
      report: 'acme: 5',
      audit: { lines: 7, total: 5 },
    });
  });

  it('makes a misspelt input field in a stage loop an error', () => {
    void (() =>
      definePipeline<Order>().stage('ledger', {
        loop: {
          // @ts-expect-error an Order has no field 'custmer'
          attempt: ({ input }) => input.custmer,
          validate: () => valid,
        },
      }));
    void (() =>
      definePipeline<Order>()
        .stage('ledger', { loop: { attempt: () => 1, validate: () => valid } })
        .stage('report', {
          dependsOn: ['ledger'],
          // @ts-expect-error the ledger stage's result is a number, not a string
          input: (results) => results.ledger?.toUpperCase(),
          loop: { attempt: ({ input }) => input, validate: () => valid },
        }));
  });

  it('makes an unknown stage id in dependsOn, or in an event, an error', async () => {
    void (() =>
      definePipeline<Order>()
        .stage('ledger', { loop: { attempt: () => 1, validate: () => valid } })
        .stage('report', {
          // @ts-expect-error there is no stage 'ledgr' before this one
          dependsOn: ['ledgr'],
          loop: { attempt: () => 1, validate: () => valid },
        }));
    const plan = orderPipeline();
    expectTypeOf<
      Parameters<typeof resumePipeline<Order, Results, PlanStageInputs<typeof plan>>>[1]['event']
    >().toEqualTypeOf<PipelineEvent<Results, PlanStageInputs<typeof plan>> | undefined>();
    const record = { stages: {}, status: 'paused' } as never;
    const wrong = () =>
      // @ts-expect-error 'reprot' is not a stage of this plan
      resumePipeline(plan, { record, event: { type: 'pipeline.retry', stage: 'reprot' } });
    void wrong;
    await expect(
      resumePipeline(plan, { record, event: { type: 'pipeline.retry', stage: 'report' } }),
    ).rejects.toThrow();
  });

  it('checks the pipeline input against the plan', () => {
    const plan = orderPipeline();
    expect(createPipelineMachine(plan).id).toBe('orders');
    // @ts-expect-error the plan takes an Order
    void (() => runPipeline(plan, 'acme'));
    expectTypeOf<PlanInput<typeof plan>>().toEqualTypeOf<Order>();
    expectTypeOf<PlanResults<typeof plan>>().toEqualTypeOf<Results>();
  });

  it('keeps plain plans working, their stage loops seeing unknown input, not any', async () => {
    const loop: LoopConfig<unknown, string> = { attempt: () => 'x', validate: () => valid };
    const plain: PipelinePlan = { stages: [{ id: 'a', loop }] };
    const run = await runPipeline(plain, 'anything');
    expectTypeOf(run.results).toEqualTypeOf<{ readonly [x: string]: unknown }>();
    void (() =>
      runPipeline(
        {
          stages: [
            {
              id: 'a',
              // @ts-expect-error the input of a stage in a plain plan is unknown
              loop: { attempt: ({ input }) => input.no.such.field, validate: () => valid },
            },
          ],
        },
        'x',
      ));
    expect(run.status === 'completed' && run.results).toEqual({ a: 'x' });
  });

  it('takes a compiled loop as a stage, typed as its config, and certifies it the same', async () => {
    const ledgerLoop: LoopConfig<Order, Ledger> = {
      maxRetries: 2,
      attempt: ({ input }) => ({ customer: input.customer, total: input.lines.length }),
      validate: () => valid,
    };
    const compiled = compileLoop(ledgerLoop);
    const plan = definePipeline<Order>({ id: 'compiled' })
      .stage('ledger', { loop: compiled })
      .stage('total', {
        dependsOn: ['ledger'],
        input: (results) => results.ledger?.total ?? 0,
        loop: compileLoop({
          attempt: ({ input }: { input: number }) => input * 2,
          validate: () => valid,
        }),
      })
      .plan();
    expectTypeOf<PlanResults<typeof plan>>().toEqualTypeOf<{ ledger: Ledger; total: number }>();
    void (() =>
      definePipeline<Order>().stage('wrong', {
        // @ts-expect-error a plan compiled for another input type does not fit the stage
        loop: compileLoop<string, string>({ attempt: () => '', validate: () => valid }),
      }));
    const run = await runPipeline(plan, order);
    expect(run.status === 'completed' && run.results).toEqual({
      ledger: { customer: 'acme', total: order.lines.length },
      total: order.lines.length * 2,
    });
    expect(certifyLoop(compiled)).toEqual(certifyLoop(ledgerLoop));
    const asConfigs = {
      ...plan,
      stages: plan.stages.map((stage) => ({
        ...stage,
        loop: (stage.loop as typeof compiled).config,
      })),
    };
    expect(certifyPipeline(plan)).toEqual(certifyPipeline(asConfigs));
  });
});

type Results =
  ReturnType<typeof orderPipeline> extends PipelinePlan<Order, infer R, infer _> ? R : never;
expectTypeOf<PipelineOutcome<Results>['stages']>().toHaveProperty('audit');
