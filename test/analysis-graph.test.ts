import { createLoopMachine } from 'loopchart';
import { budgetGuard, isBudgetGuard, machineGraph, WAITS_FOR_HUMAN } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { and, assign, createActor, fromPromise, not, or, raise, setup } from 'xstate';

const steps = { attempt: () => 'draft', validate: () => ({ valid: true as const }) };

describe('machineGraph on the loop machine', () => {
  const graph = machineGraph(
    createLoopMachine({
      ...steps,
      fallback: () => 'safe',
      maxCost: 10,
      review: { beforeProceed: true },
    }),
  );
  const from = (source: string) => graph.edges.filter((edge) => edge.source === source);

  it('keeps the routing decision table (always transitions) in the order guards are tried', () => {
    expect(
      from('loop.routing').map((edge) => [edge.kind, edge.guard ?? '—', edge.target, edge.budget]),
    ).toEqual([
      ['always', 'isMalformed', 'loop.terminate_with_partial', false],
      ['always', 'isValid', 'loop.proceed', false],
      ['always', 'isFundamental', 'loop.terminate_with_partial', false],
      ['always', 'lacksDiagnostic', 'loop.terminate_with_partial', false],
      ['always', 'isStalled', 'loop.stalled', false],
      ['always', 'refineWouldPassCeiling', 'loop.ceiling_stop', true],
      ['always', 'refineWouldPassCostBudget', 'loop.budget_stop', true],
      ['always', 'hasRetriesLeft', 'loop.refining', true],
      ['always', 'costBudgetSpent', 'loop.budget_stop', false],
      ['always', '—', 'loop.fallingBack', false],
    ]);
    expect(from('loop.routing').map((edge) => edge.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(from('loop.routing').find((edge) => edge.guard === 'hasRetriesLeft')?.actions).toEqual([
      'countRetry',
    ]);
  });

  it('reads invoke done/error, event and root transitions with their kinds', () => {
    expect(
      from('loop.attempting').map((edge) => `${edge.kind} ${edge.event} → ${edge.target}`),
    ).toEqual([
      'done xstate.done.actor.attempt → loop.empty',
      'done xstate.done.actor.attempt → loop.awaitingClarification',
      'done xstate.done.actor.attempt → loop.validating',
      'error xstate.error.actor.attempt → loop.failed',
    ]);
    expect(from('loop')).toMatchObject([
      { kind: 'event', event: 'loop.abort', target: 'loop.aborted' },
    ]);
    expect(from('loop.awaitingReview').map((edge) => edge.event)).toEqual([
      'review.continue',
      'review.modify',
      'review.modify',
      'review.retry',
      'review.abort',
    ]);
  });

  it('describes nodes: type, parent, invokes, initial, human waits', () => {
    const node = (id: string) => graph.nodes.find((n) => n.id === id);
    expect(node('loop')).toMatchObject({ type: 'compound', path: [], initial: 'loop.attempting' });
    expect(node('loop.attempting')).toMatchObject({
      key: 'attempting',
      path: ['attempting'],
      parent: 'loop',
      type: 'atomic',
      invokes: ['attempt'],
      waitsForHuman: false,
    });
    expect(node('loop.awaitingReview')).toMatchObject({
      tags: [WAITS_FOR_HUMAN],
      waitsForHuman: true,
    });
    expect(node('loop.awaitingClarification')?.waitsForHuman).toBe(true);
    expect(node('loop.proceed')?.type).toBe('final');
    expect(graph.nodes.filter((n) => n.waitsForHuman).map((n) => n.key)).toEqual([
      'awaitingClarification',
      'awaitingReview',
    ]);
  });

  it('holds only the states the config can reach', () => {
    const keys = machineGraph(createLoopMachine({ ...steps, maxRetries: 0 })).nodes.map(
      (n) => n.key,
    );
    expect(keys).not.toContain('refining');
    expect(keys).not.toContain('fallingBack');
    expect(keys).not.toContain('budget_stop');
    expect(keys).not.toContain('awaitingReview');
  });
});

describe('budgetGuard', () => {
  it('marks a copy that behaves like the guard, keeping its name, and leaves the original unmarked', () => {
    const underCap = ({ context }: { context: { n: number } }) => context.n < 3;
    const marked = budgetGuard(underCap);
    expect(isBudgetGuard(marked)).toBe(true);
    expect(isBudgetGuard(underCap)).toBe(false);
    expect(marked.name).toBe('underCap');
    expect([marked({ context: { n: 2 } }), marked({ context: { n: 3 } })]).toEqual([true, false]);
  });

  it('marks an xstate composite in place, so xstate still evaluates its parts', async () => {
    const both = budgetGuard(and(['a', 'b']) as unknown as () => boolean);
    expect(isBudgetGuard(both)).toBe(true);
    const machine = setup({
      guards: { a: () => true, b: () => true, both: both as never },
    }).createMachine({
      initial: 'x',
      states: { x: { always: { guard: 'both', target: 'y' } }, y: { type: 'final' } },
    });
    expect(createActor(machine).start().getSnapshot().value).toBe('y');
  });
});

describe('machineGraph on any machine', () => {
  const machine = setup({
    types: { context: {} as { n: number } },
    actors: { job: fromPromise(async () => 1) },
    guards: {
      capped: budgetGuard(({ context }: { context: { n: number } }) => context.n < 3),
      ready: () => true,
    },
    actions: { bump: assign({ n: ({ context }) => context.n + 1 }) },
  }).createMachine({
    id: 'm',
    context: { n: 0 },
    initial: 'split',
    states: {
      split: {
        type: 'parallel',
        on: { go: { target: ['.left.b', '.right.d'] } },
        states: {
          left: { initial: 'a', states: { a: {}, b: {} } },
          right: { initial: 'c', states: { c: {}, d: {} } },
        },
      },
      loose: {
        entry: raise({ type: 'poke' }),
        on: {
          poke: [
            { guard: and(['ready', not('capped')]), target: 'split' },
            { guard: or(['capped', 'ready']), actions: 'bump' },
          ],
        },
      },
      hist: { type: 'history' },
    },
  });
  const graph = machineGraph(machine);

  it('splits a multi-target transition into one edge per target', () => {
    expect(
      graph.edges.filter((edge) => edge.event === 'go').map((edge) => [edge.id, edge.target]),
    ).toEqual([
      ['m.split:go:0:0', 'm.split.left.b'],
      ['m.split:go:0:1', 'm.split.right.d'],
    ]);
  });

  it('renders inline composite guards and finds budget guards only where they are required', () => {
    const poke = graph.edges.filter((edge) => edge.event === 'poke');
    expect(poke.map((edge) => [edge.guard, edge.budget])).toEqual([
      ['and(ready, not(capped))', false],
      ['or(capped, ready)', false],
    ]);
    expect(poke[1]).toMatchObject({ target: 'm.loose', actions: ['bump'] });
  });

  it('types parallel, history and atomic nodes; a state that raises its own events does not wait', () => {
    const types = Object.fromEntries(graph.nodes.map((node) => [node.id, node.type]));
    expect(types).toMatchObject({
      'm.split': 'parallel',
      'm.split.left': 'compound',
      'm.hist': 'history',
    });
    expect(graph.nodes.find((node) => node.id === 'm.split.left')?.initial).toBe('m.split.left.a');
    expect(graph.nodes.find((node) => node.id === 'm.loose')?.waitsForHuman).toBe(false);
    expect(graph.nodes.find((node) => node.id === 'm.split.left.a')?.waitsForHuman).toBe(true);
  });
});
