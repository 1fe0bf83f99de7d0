import { createLoopMachine, type LoopConfig } from 'loopchart';
import {
  assertBoundedLoops,
  budgetGuard,
  findUnboundedCycles,
  isUnboundedLoopError,
  UnboundedLoopError,
} from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { and, assign, createMachine, fromPromise, not, setup } from 'xstate';

const work = fromPromise(async () => 'done');
const cyclesOf = (machine: Parameters<typeof findUnboundedCycles>[0]) =>
  findUnboundedCycles(machine).map((cycle) => cycle.states.join(' → '));

describe('assertBoundedLoops on hand-written machines', () => {
  it('fails on an uncapped self-loop through always, naming the state', () => {
    const machine = setup({
      types: { context: {} as { n: number } },
      guards: { tooSmall: ({ context }) => context.n < 10 },
    }).createMachine({
      id: 'grow',
      context: { n: 0 },
      initial: 'growing',
      states: {
        growing: {
          always: [
            {
              guard: 'tooSmall',
              target: 'growing',
              actions: assign({ n: ({ context }) => context.n + 1 }),
            },
            { target: 'big' },
          ],
        },
        big: { type: 'final' },
      },
    });
    expect(cyclesOf(machine)).toEqual(['grow.growing']);
    expect(() => assertBoundedLoops(machine)).toThrowErrorMatchingInlineSnapshot(`
      [UnboundedLoopError: Machine "grow" has 1 unbounded cycle: no budget guard bounds it and no human wait gates it.
        1. grow.growing →(always if tooSmall) grow.growing
      Guard a transition of each cycle with a guard marked budgetGuard(...), or pass it through a state tagged 'waitsForHuman'.]
    `);
  });

  it('fails on a two-state loop through after', () => {
    const machine = setup({}).createMachine({
      id: 'blink',
      initial: 'on',
      states: { on: { after: { 100: 'off' } }, off: { after: { 200: 'on' } } },
    });
    expect(cyclesOf(machine)).toEqual(['blink.on → blink.off']);
    expect(() => assertBoundedLoops(machine)).toThrow(
      /blink\.on →\(xstate\.after\.100\.blink\.on\) blink\.off →\(xstate\.after\.200\.blink\.off\) blink\.on/,
    );
  });

  it('fails on a three-state loop through invoke onDone', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'pipeline',
      initial: 'fetch',
      states: {
        fetch: { invoke: { src: 'work', onDone: 'parse' } },
        parse: { invoke: { src: 'work', onDone: 'store' } },
        store: { invoke: { src: 'work', onDone: 'fetch', onError: 'broken' } },
        broken: { type: 'final' },
      },
    });
    expect(cyclesOf(machine)).toEqual(['pipeline.fetch → pipeline.parse → pipeline.store']);
    const error = (() => {
      try {
        assertBoundedLoops(machine);
      } catch (caught) {
        return caught;
      }
    })();
    expect(isUnboundedLoopError(error)).toBe(true);
    expect(error).toBeInstanceOf(UnboundedLoopError);
    expect((error as UnboundedLoopError).cycles[0]?.edges.map((edge) => edge.kind)).toEqual([
      'done',
      'done',
      'done',
    ]);
  });

  it('passes a loop gated on a human event (tagged, or a state only events can leave)', () => {
    const build = (tags: string[]) =>
      setup({ actors: { work } }).createMachine({
        id: 'draft',
        initial: 'writing',
        states: {
          writing: { invoke: { src: 'work', onDone: 'review' } },
          review: { tags, on: { approve: 'done', reject: 'writing' } },
          done: { type: 'final' },
        },
      });
    expect(() => assertBoundedLoops(build(['waitsForHuman']))).not.toThrow();
    expect(() => assertBoundedLoops(build([]))).not.toThrow();
    expect(() =>
      assertBoundedLoops(build(['waitsForHuman']), { humanWait: 'tagged' }),
    ).not.toThrow();
    expect(() => assertBoundedLoops(build([]), { humanWait: 'tagged' })).toThrow(
      /draft\.writing →\(xstate\.done\.actor\.\S+\) draft\.review →\(reject\) draft\.writing/,
    );
  });

  it('does not count a human state left by a timer as a human gate', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'impatient',
      initial: 'writing',
      states: {
        writing: { invoke: { src: 'work', onDone: 'review' } },
        review: { tags: ['waitsForHuman'], after: { 60000: 'writing' }, on: { approve: 'done' } },
        done: { type: 'final' },
      },
    });
    expect(cyclesOf(machine)).toEqual(['impatient.writing → impatient.review']);
  });

  it('passes a user machine whose back-edge is guarded by budgetGuard (also inside and())', () => {
    const build = (guard: 'underCap' | 'both' | 'negated') =>
      setup({
        types: { context: {} as { tries: number } },
        actors: { work },
        guards: {
          underCap: budgetGuard(({ context }: { context: { tries: number } }) => context.tries < 3),
          plain: ({ context }) => context.tries < 3,
          both: and(['plain', 'underCap']),
          negated: and(['plain', not('underCap')]),
        },
      }).createMachine({
        id: 'capped',
        context: { tries: 0 },
        initial: 'trying',
        states: {
          trying: { invoke: { src: 'work', onDone: 'checking' } },
          checking: {
            always: [
              {
                guard: guard,
                target: 'trying',
                actions: assign({ tries: ({ context }) => context.tries + 1 }),
              },
              { target: 'gaveUp' },
            ],
          },
          gaveUp: { type: 'final' },
        },
      });
    expect(() => assertBoundedLoops(build('underCap'))).not.toThrow();
    expect(() => assertBoundedLoops(build('both'))).not.toThrow();
    expect(cyclesOf(build('negated'))).toEqual(['capped.trying → capped.checking']);
  });

  it('applies a compound state’s transitions in every state inside it, and follows onDone', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'nested',
      initial: 'job',
      states: {
        job: {
          initial: 'prepare',
          after: { 5000: 'cooldown' },
          onDone: 'report',
          states: {
            prepare: { always: 'run' },
            run: { invoke: { src: 'work', onDone: 'finished' } },
            finished: { type: 'final' },
          },
        },
        cooldown: { always: 'job' },
        report: { on: { again: 'job' } },
      },
    });
    expect(cyclesOf(machine)).toEqual(['nested.job.prepare → nested.job.run → nested.cooldown']);
  });

  it('ignores a self-transition that neither re-enters nor spins, and reports one that re-enters', () => {
    const build = (reenter: boolean) =>
      setup({}).createMachine({
        id: 'tick',
        initial: 'waiting',
        states: { waiting: { after: { 1000: { target: 'waiting', reenter } } } },
      });
    expect(cyclesOf(build(false))).toEqual([]);
    expect(cyclesOf(build(true))).toEqual(['tick.waiting']);
  });
});

describe('the README example', () => {
  const poller = (underCap: (args: { context: { polls: number } }) => boolean) =>
    setup({
      types: { context: {} as { polls: number } },
      actors: { poll: fromPromise(async () => 'still running') },
      guards: { underCap },
    }).createMachine({
      id: 'poller',
      context: { polls: 0 },
      initial: 'polling',
      states: {
        polling: { invoke: { id: 'poll', src: 'poll', onDone: 'checking' } },
        checking: {
          always: [
            {
              guard: 'underCap',
              target: 'polling',
              actions: assign({ polls: ({ context }) => context.polls + 1 }),
            },
            { target: 'gaveUp' },
          ],
        },
        gaveUp: { type: 'final' },
      },
    });

  it('passes with budgetGuard and fails, naming the cycle, without it', () => {
    const underCap = ({ context }: { context: { polls: number } }) => context.polls < 10;
    expect(() => assertBoundedLoops(poller(budgetGuard(underCap)))).not.toThrow();
    expect(() => assertBoundedLoops(poller(underCap))).toThrow(
      [
        'Machine "poller" has 1 unbounded cycle: no budget guard bounds it and no human wait gates it.',
        '  1. poller.polling →(xstate.done.actor.poll) poller.checking →(always if underCap) poller.polling',
      ].join('\n'),
    );
  });
});

type Options = Omit<LoopConfig<string, string>, 'attempt' | 'validate'>;
const stepsOf = (options: Options): LoopConfig<string, string> => ({
  attempt: () => 'draft',
  validate: () => ({ valid: true }),
  ...options,
});

const loopConfigs: Options[] = [];
for (const maxRetries of [0, 1, 2, 3, 5, 10, 50]) {
  for (const fallback of [undefined, () => 'safe']) {
    for (const extras of [
      {},
      { maxCost: 10 },
      { stall: false as const },
      { stall: { after: 2, on: 'verdict' as const } },
      { review: { beforeProceed: true } },
      { review: { afterFailedValidation: true }, maxCost: 5 },
      { idempotent: true },
      { idempotent: { attempt: true }, attemptTimeoutMs: 50, maxAttempts: 100 },
    ]) {
      loopConfigs.push({ maxRetries, ...(fallback ? { fallback } : {}), ...extras });
    }
  }
}

describe('assertBoundedLoops on every machine loopchart builds', () => {
  it(`passes for ${loopConfigs.length} configurations`, () => {
    for (const options of loopConfigs) {
      const machine = createLoopMachine(stepsOf(options));
      expect(findUnboundedCycles(machine), JSON.stringify(options)).toEqual([]);
      expect(findUnboundedCycles(machine, { humanWait: 'tagged' })).toEqual([]);
      expect(
        () => assertBoundedLoops(machine, { strict: true }),
        JSON.stringify(options),
      ).not.toThrow();
    }
  });

  it('would fail if the routing back-edge lost its budget guard', () => {
    const machine = createLoopMachine(stepsOf({ maxRetries: 3 }));
    const unmarked = machine.provide({
      guards: { hasRetriesLeft: ({ context }) => context.retryCount < context.settings.maxRetries },
    });
    expect(cyclesOf(unmarked)).toEqual([
      'loop.attempting → loop.validating → loop.routing → loop.refining',
    ]);
  });
});

describe('targetless transitions', () => {
  it('a root-level handler without a target moves nowhere, so it closes no cycle', () => {
    const machine = createMachine({
      initial: 'working',
      on: { 'xstate.done.actor.*': { actions: () => {} } },
      states: {
        working: { always: { guard: () => false, target: 'finishing' } },
        finishing: { after: { 10: 'done' } },
        done: { type: 'final' },
      },
    });
    expect(findUnboundedCycles(machine)).toEqual([]);
  });

  it('a targetless always transition still spins, and is reported', () => {
    const machine = createMachine({
      initial: 'spinning',
      states: { spinning: { always: { guard: () => true, actions: () => {} } } },
    });
    expect(findUnboundedCycles(machine).map((cycle) => cycle.states)).toEqual([
      ['(machine).spinning'],
    ]);
  });
  it("a parent's targetless always spins in whichever child is active, and moves to no other", () => {
    const machine = createMachine({
      id: 'p',
      initial: 'a',
      always: { guard: () => true, actions: () => {} },
      states: { a: { on: { go: 'b' } }, b: {} },
    });
    const cycles = findUnboundedCycles(machine).map((cycle) => cycle.states);
    expect(cycles).toHaveLength(2);
    expect(cycles).toEqual(expect.arrayContaining([['p.a'], ['p.b']]));
  });
});
