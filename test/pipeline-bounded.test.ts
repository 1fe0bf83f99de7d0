import { assertBoundedLoops, findUnboundedCycles } from 'loopchart/analysis';
import { createPipelineMachine, type PipelinePlan } from 'loopchart/pipeline';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine } from 'xstate';
import { valid } from './support/scriptedSteps.js';

const loop = { attempt: () => 'x', validate: () => valid };
/** Every kind of layer: plain, cross-checked, with a checkpoint. */
const plan: PipelinePlan = {
  stages: [
    { id: 'find', loop },
    { id: 'ledger', dependsOn: ['find'], loop },
    { id: 'crm', dependsOn: ['find'], loop, checkpoint: true },
    { id: 'summary', dependsOn: ['ledger', 'crm'], loop },
  ],
  crossCheck: () => valid,
};

/** The same machine with every `waitsForHuman` tag removed. */
function untagged(machine: AnyStateMachine): AnyStateMachine {
  const strip = (node: Record<string, unknown>): Record<string, unknown> => {
    const { tags: _, states, ...rest } = node;
    if (!states) return rest;
    const children = Object.entries(states as Record<string, Record<string, unknown>>);
    return { ...rest, states: Object.fromEntries(children.map(([k, v]) => [k, strip(v)])) };
  };
  return createMachine(strip(machine.config as never) as never, machine.implementations as never);
}

describe('the pipeline machine terminates', () => {
  it('passes assertBoundedLoops: every cycle goes through a state that waits for a person', () => {
    const machine = createPipelineMachine(plan);
    expect(() => assertBoundedLoops(machine, { strict: true })).not.toThrow();
    expect(findUnboundedCycles(machine, { humanWait: 'tagged' })).toEqual([]);
  });

  it('is not vacuous: without the waitsForHuman tags its retry and continue cycles are reported', () => {
    const cycles = findUnboundedCycles(untagged(createPipelineMachine(plan)), {
      humanWait: 'tagged',
    }).map((cycle) => cycle.states.join(' → '));
    expect(cycles).toContain(
      'pipeline.layer1.running → pipeline.layer1.settling → pipeline.layer1.stageFailed',
    );
    expect(cycles).toContain(
      'pipeline.layer2.running → pipeline.layer2.settling → pipeline.layer2.crossChecking → pipeline.layer2.checked → pipeline.layer2.awaitingReview',
    );
  });
});
