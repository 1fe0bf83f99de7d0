// Structured output: a zod schema as the validator, and the Vercel AI SDK as the steps.
import { type LanguageModel, Output } from 'ai';
import { expectTypeOf } from 'expect-type';
import { type LoopConfig, type LoopOutcome, runLoop, schemaValidator } from 'loopchart';
import {
  isUnusableOutput,
  type ModelLoopConfig,
  modelSteps,
  type UnusableOutput,
} from 'loopchart/ai';
import { z } from 'zod';

declare const model: LanguageModel;
const Ticket = z.object({ summary: z.string(), priority: z.enum(['low', 'normal', 'high']) });
type Ticket = z.output<typeof Ticket>;

export async function withSchemaValidator(email: string): Promise<string | undefined> {
  const validate = schemaValidator(Ticket);
  const outcome = await runLoop(
    { maxRetries: 2, attempt: ({ input }) => `{"summary": "${input}"}`, validate },
    email,
  );
  if (outcome.status !== 'proceed') return undefined;
  const ticket = await validate.parse(outcome.candidate);
  return ticket.summary;
}

export async function withModelSteps(email: string): Promise<Ticket | undefined> {
  const steps = modelSteps({
    call: ({ input }) => ({ model, output: Output.object({ schema: Ticket }), prompt: input }),
  });
  // probe: an unannotated call ctx is typed (its input is a string)
  expectTypeOf<Parameters<typeof steps.attempt>[0]['input']>().toEqualTypeOf<string>();
  const outcome = await runLoop({ ...steps, maxRetries: 2, maxCost: 20_000 }, email);
  if (outcome.status === 'proceed') {
    // probe: the proceed candidate is the schema's type, as the docs say
    expectTypeOf(outcome.candidate).toEqualTypeOf<Ticket>();
    return outcome.candidate;
  }
  if (outcome.status === 'terminate_with_partial' && isUnusableOutput(outcome.partial)) {
    expectTypeOf(outcome.partial.kind).toEqualTypeOf<UnusableOutput['kind']>();
  }
  return undefined;
}

export async function textOnly(prompt: string): Promise<string | undefined> {
  // probe: a text-only modelSteps fills a loop config of string input and string replies
  const loop: ModelLoopConfig<string> = {
    ...modelSteps({ call: ({ input }) => ({ model, prompt: input }) }),
    maxRetries: 1,
  };
  const outcome: LoopOutcome<string | UnusableOutput> = await runLoop(loop, prompt);
  // probe: ... and proceeds with a string
  if (outcome.status === 'proceed') expectTypeOf(outcome.candidate).toEqualTypeOf<string>();
  // probe: a refusal can be the partial, so a plain string config is not what it fills
  // @ts-expect-error TS2375 the attempt may return an UnusableOutput
  const plain: LoopConfig<string, string> = loop;
  void plain;
  return outcome.status === 'proceed' ? outcome.candidate : undefined;
}
