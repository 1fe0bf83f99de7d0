import { createLoopMachine, type LoopConfig } from 'loopchart';
import { machineGraph, toMachineJson, toMermaid } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { findBackEdges } from '../src/tools/diagram/findBackEdges.js';
import { oddKeysMachine } from './browser/support/oddKeysMachine.js';

const steps: LoopConfig<string, string> = { attempt: () => 'x', validate: () => ({ valid: true }) };

/** Kahn's algorithm: true when the edges (without the back-edges) have no cycle. */
function isAcyclic(nodes: string[], edges: Array<{ source: string; target: string }>) {
  const indegree = new Map(nodes.map((node) => [node, 0]));
  for (const edge of edges) indegree.set(edge.target, (indegree.get(edge.target) ?? 0) + 1);
  const ready = nodes.filter((node) => indegree.get(node) === 0);
  let seen = 0;
  while (ready.length > 0) {
    const node = ready.pop() as string;
    seen += 1;
    for (const edge of edges.filter((e) => e.source === node)) {
      indegree.set(edge.target, (indegree.get(edge.target) ?? 0) - 1);
      if (indegree.get(edge.target) === 0) ready.push(edge.target);
    }
  }
  return seen === nodes.length;
}

describe('back-edges: edges that close a cycle in a depth-first walk from the initial state', () => {
  it('are the edges that return to a state still on the walk, self-transitions included', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'a',
      states: {
        a: { on: { NEXT: 'b', SKIP: 'c' } },
        b: { on: { NEXT: 'c', BACK: 'a', STAY: 'b' } },
        c: { on: { AGAIN: 'a' }, always: { guard: 'never', target: 'b' } },
        lonely: { on: { LOOP: 'lonely2' } },
        lonely2: { on: { LOOP: 'lonely' } },
      },
    });
    const json = toMachineJson(machine);
    const back = json.edges
      .filter((edge) => edge.backEdge)
      .map((edge) => `${edge.source}>${edge.target}`);
    expect(back.sort()).toEqual(
      ['m.b>m.a', 'm.b>m.b', 'm.c>m.a', 'm.c>m.b', 'm.lonely2>m.lonely'].sort(),
    );
  });

  it('follow compound states into their initial child, so re-entering a parent is a back-edge', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'p',
      states: {
        p: {
          initial: 'x',
          states: { x: { on: { GO: 'y' } }, y: { on: { RESTART: '#m.p' } } },
          on: { DONE: 'q' },
        },
        q: { type: 'final' },
      },
    });
    const back = toMachineJson(machine).edges.filter((edge) => edge.backEdge);
    expect(back.map((edge) => `${edge.source}>${edge.target}`)).toEqual(['m.p.y>m.p']);
  });

  it.each([
    ['default', {}],
    ['no retries', { maxRetries: 0 }],
    [
      'fallback, budget, review',
      {
        fallback: () => 'f',
        maxCost: 10,
        review: { beforeProceed: true, afterFailedValidation: true },
      },
    ],
    ['idempotent, no stall', { idempotent: true, stall: false as const }],
  ])('leave every loop machine acyclic once removed (%s)', (_name, options) => {
    const graph = machineGraph(createLoopMachine({ ...steps, ...options }));
    const back = findBackEdges(graph);
    expect(back.size).toBeGreaterThan(0);
    const nodes = graph.nodes.filter((node) => node.parent !== undefined).map((node) => node.id);
    const forward = graph.edges.filter((edge) => !back.has(edge.id) && nodes.includes(edge.source));
    expect(isAcyclic(nodes, forward)).toBe(true);
    expect(
      isAcyclic(
        nodes,
        graph.edges.filter((edge) => nodes.includes(edge.source)),
      ),
    ).toBe(false);
  });

  it("mark the loop's own return: refining → attempting", () => {
    const json = toMachineJson(createLoopMachine({ ...steps, maxRetries: 5 }));
    const refineDone = json.edges.find(
      (edge) => edge.source === 'loop.refining' && edge.kind === 'done',
    );
    expect(refineDone).toMatchObject({ target: 'loop.attempting', backEdge: true });
    expect(
      json.edges.find((edge) => edge.source === 'loop.routing' && edge.target === 'loop.refining'),
    ).toMatchObject({ backEdge: false, guard: 'hasRetriesLeft', budget: true });
  });
});

describe('toMachineJson', () => {
  it('is plain JSON with the always transitions in guard order', () => {
    const json = toMachineJson(createLoopMachine(steps));
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    const routing = json.edges.filter((edge) => edge.source === 'loop.routing');
    expect(routing.every((edge) => edge.kind === 'always')).toBe(true);
    expect(routing.map((edge) => edge.guard ?? '(else)')).toEqual([
      'isMalformed',
      'isValid',
      'isFundamental',
      'lacksDiagnostic',
      'isStalled',
      'refineWouldPassCeiling',
      'hasRetriesLeft',
      '(else)',
    ]);
  });
});

describe('toMermaid', () => {
  it('writes the default loop as a stateDiagram-v2 with guard names and marked back-edges', () => {
    expect(toMermaid(createLoopMachine(steps))).toMatchInlineSnapshot(`
      "---
      config:
        state:
          nodeSpacing: 180
          rankSpacing: 140
      ---
      stateDiagram-v2
        %% loop: generated by loopchart toMermaid. ↻ marks a back-edge (it closes a cycle).
        %% cycles (loopchart's termination check): 0 unbounded (∞ on their hops, red states), 0 undecided (? on their hops, amber states; add the marker named below), 11 bounded (green states).
        direction TB
        state "any state" as any_state
        [*] --> attempting
        any_state --> aborted : loop.abort
        attempting --> empty : done.attempt [isEmptyResult]
        attempting --> awaitingClarification : done.attempt [isClarificationRequest]
        attempting --> validating : done.attempt
        attempting --> failed : error.attempt
        validating --> routing : done.validate
        validating --> failed : error.validate
        routing --> terminate_with_partial : [isMalformed] or [isFundamental] or [lacksDiagnostic]
        routing --> proceed : [isValid]
        routing --> stalled : [isStalled]
        routing --> ceiling_stop : [refineWouldPassCeiling]
        routing --> refining : [hasRetriesLeft]
        routing --> iteration_exhausted
        refining --> attempting : ↻ done.refine
        refining --> failed : error.refine
        failed --> ceiling_stop : [stoppedByDeadline] or [retryWouldPassCeiling]
        failed --> policy_stop : [isPolicyFailure]
        failed --> unknown_outcome : [hasUnknownEffect]
        failed --> permanent_failure : [isPermanentFailure]
        failed --> retry_exhausted : [retryDelayTooLong] or else
        failed --> waitingToRetry : [transientRetryAllowed]
        waitingToRetry --> ceiling_stop : done.retryDelay [retryWaitHitDeadline]
        waitingToRetry --> attempting : ↻ done.retryDelay [failedInAttempt]
        waitingToRetry --> refining : ↻ done.retryDelay [failedInRefine]
        waitingToRetry --> validating : ↻ done.retryDelay
        attemptGate --> ceiling_stop : [ceilingReached]
        attemptGate --> attempting : ↻
        awaitingClarification --> attemptGate : clarification.answer
        %% back-edges: refining → attempting, waitingToRetry → attempting, waitingToRetry → refining, waitingToRetry → validating, attemptGate → attempting
        classDef finalState font-weight:bold,stroke-width:3px
        class proceed,terminate_with_partial,iteration_exhausted,stalled,policy_stop,permanent_failure,retry_exhausted,unknown_outcome,ceiling_stop,empty,aborted finalState
        classDef waitsForHuman stroke-dasharray:5 3
        class awaitingClarification waitsForHuman
        classDef boundedCycle stroke:#2e7d32,stroke-width:2px
        class attempting,validating,routing,refining,failed,waitingToRetry,attemptGate,awaitingClarification boundedCycle
      "
    `);
  });

  it('gives odd, repeated or reserved state keys safe unique ids and keeps labels parseable', () => {
    const machine = oddKeysMachine();
    const text = toMermaid(machine, { direction: 'LR' });
    expect(text).toContain('  direction LR');
    expect(text).toContain('state "first step" as s_first_step');
    expect(text).toContain('state "end" as s_end {');
    expect(text).toContain('state "end" as s_end_end');
    expect(text).toContain("s_first_step --> s_end : go 'quoted' (x) ‹b›");
    expect(text).toContain('any_state --> s_end : reset, all, now no.1');
    expect(text).toContain('class s_end_end finalState');
  });
});
