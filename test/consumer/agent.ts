// An agent that routes a request and plans a pipeline from a registry of typed stage kinds.
import { expectTypeOf } from 'expect-type';
import {
  type AgentOutcome,
  createAgent,
  type DefaultStageInput,
  planInstructions,
  runAgent,
  type StageRegistry,
  stageKind,
} from 'loopchart/agent';

interface Row {
  company: string;
  revenue: number;
}
const revenue: Record<string, number> = { acme: 410, globex: 350 };

const registry: StageRegistry = {
  lookup: stageKind({
    description: 'reads the revenue of params.company',
    input: ({ params }) => String(params.company),
    loop: {
      // probe: the stage loop's input is what the kind's input builder returns
      attempt: ({ input }): Row => ({ company: input, revenue: revenue[input] ?? 0 }),
      validate: (row) => (row.revenue > 0 ? { valid: true } : { valid: false }),
    },
  }),
  table: stageKind({
    description: 'writes a table of the rows it depends on',
    loop: {
      attempt: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<DefaultStageInput>();
        return Object.keys(input.results).join(' | ');
      },
      validate: () => ({ valid: true }),
    },
  }),
};

export async function answer(request: string): Promise<AgentOutcome<string>> {
  const agent = createAgent({
    task: { attempt: ({ input }) => input.trim(), validate: () => ({ valid: true }) },
    planner: { plan: (ctx) => `${ctx.instructions}\n${planInstructions(registry)}` },
    registry,
  });
  const outcome = await runAgent(agent, request);
  if (outcome.result?.status === 'proceed')
    expectTypeOf(outcome.result.candidate).toEqualTypeOf<string>();
  return outcome;
}

export const wrongKind = stageKind({
  input: ({ params }) => Number(params.year),
  loop: {
    // @ts-expect-error TS2339 the input is a number, it has no toUpperCase
    attempt: ({ input }) => input.toUpperCase(),
    validate: () => ({ valid: true }),
  },
});
