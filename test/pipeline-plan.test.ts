import { isLoopConfigError } from 'loopchart';
import { createPipelineMachine, type PipelineStage } from 'loopchart/pipeline';
import { describe, expect, it } from 'vitest';
import { findCycles, planLayers } from '../src/runners/pipeline/planLayers.js';
import { valid } from './support/scriptedSteps.js';

const loop = { attempt: () => 'x', validate: () => valid };
const stage = (id: string, ...dependsOn: string[]): PipelineStage => ({ id, dependsOn, loop });

/** The message of the error `createPipelineMachine` throws for these stages. */
function rejection(stages: unknown[]): string {
  try {
    createPipelineMachine({ stages } as never);
  } catch (error) {
    if (!isLoopConfigError(error)) throw error;
    return error.message;
  }
  throw new Error('the plan was accepted');
}

describe('plan validation at creation', () => {
  it('rejects a cycle, naming its stages in running order', () => {
    expect(
      rejection([stage('a', 'c'), stage('b', 'a'), stage('c', 'b'), stage('d', 'c')]),
    ).toMatchInlineSnapshot(`
        "loopchart: invalid pipeline plan
          - stages: dependsOn has a cycle: a → b → c → a
          - stages: stage 'd' waits on a cycle and can never start"
      `);
  });

  it('rejects a stage that depends on itself, and every separate cycle', () => {
    expect(
      rejection([stage('a', 'a'), stage('b', 'c'), stage('c', 'b'), stage('e'), stage('f', 'e')]),
    ).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages: stage 'a' depends on itself
        - stages: dependsOn has a cycle: b → c → b"
    `);
  });

  it('rejects an unknown dependency, naming the stage and the missing id', () => {
    expect(rejection([stage('fetch'), stage('join', 'fetch', 'ledger')])).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages.1.dependsOn.1: stage 'join' depends on 'ledger', which is not a stage of this plan (stages: fetch, join)"
    `);
  });

  it('rejects a duplicate stage id, naming both places', () => {
    expect(rejection([stage('a'), stage('b', 'a'), stage('a')])).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages.2.id: duplicate stage id 'a' (stages.0 has it too)"
    `);
  });

  it("rejects a stage's bad loop config, naming the stage and the field", () => {
    expect(
      rejection([stage('a'), { id: 'b', dependsOn: ['a'], loop: { ...loop, maxRetries: 99 } }]),
    ).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages.1.loop (stage 'b') is not a valid loop config:
          - maxRetries: must be an integer from 0 to 50 (received 99)"
    `);
  });

  it('rejects malformed stages and options with the field named', () => {
    expect(
      rejection([
        { id: '1st', loop },
        { id: 'b', loop: 'attempt', checkpoint: 'yes', extra: 1 },
      ]),
    ).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages.0.id: must be a letter followed by up to 63 letters, digits, _ or - (received "1st")
        - stages.1.loop: must be a loop config ({ attempt, validate, … }) (received "attempt")
        - stages.1.checkpoint: must be true or false (received "yes")
        - stages.1.extra: is not an option"
    `);
    expect(rejection([])).toMatchInlineSnapshot(`
      "loopchart: invalid pipeline plan
        - stages: must hold at least one stage (received [])"
    `);
  });

  it('accepts a valid plan', () => {
    expect(() => createPipelineMachine({ stages: [stage('b', 'a'), stage('a')] })).not.toThrow();
  });
});

describe("layers by Kahn's algorithm", () => {
  it('puts each stage one layer after its last dependency, whatever the list order', () => {
    const nodes = [
      { id: 'report', dependsOn: ['join', 'fetch'] },
      { id: 'join', dependsOn: ['left', 'right'] },
      { id: 'right', dependsOn: ['fetch'] },
      { id: 'left', dependsOn: ['fetch'] },
      { id: 'fetch', dependsOn: [] },
      { id: 'audit', dependsOn: [] },
    ];
    const expected = [['audit', 'fetch'], ['left', 'right'], ['join'], ['report']];
    expect(planLayers(nodes)).toEqual({ layers: expected, blocked: [] });
    expect(planLayers([...nodes].reverse())).toEqual({ layers: expected, blocked: [] });
  });

  it('leaves the stages on or behind a cycle blocked, and finds the cycle', () => {
    const nodes = [
      { id: 'a', dependsOn: [] },
      { id: 'b', dependsOn: ['a', 'c'] },
      { id: 'c', dependsOn: ['b'] },
      { id: 'd', dependsOn: ['c'] },
    ];
    expect(planLayers(nodes)).toEqual({ layers: [['a']], blocked: ['b', 'c', 'd'] });
    expect(findCycles(nodes)).toEqual([['b', 'c', 'b']]);
  });
});
