import {
  analyzeCycles,
  assertBoundedLoops,
  describeCycle,
  findUnboundedCycles,
} from 'loopchart/analysis';
import { describe, expect, it, vi } from 'vitest';
import {
  assign,
  createActor,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  raise,
  sendTo,
  setup,
  spawnChild,
} from 'xstate';

// One small machine per pattern of issue 23: what the check reports, and which hop explains it.

type Machine = Parameters<typeof findUnboundedCycles>[0];
const work = fromPromise(async () => 'ok');
const joined = (cycles: { states: string[] }[]) => cycles.map((cycle) => cycle.states.join(' → '));
const unbounded = (machine: Machine, options?: Parameters<typeof analyzeCycles>[1]) =>
  joined(analyzeCycles(machine, options).unbounded);

describe('events sent by an invoked callback actor', () => {
  const slides = (relay: ReturnType<typeof fromCallback>) =>
    setup({ actors: { relay } }).createMachine({
      id: 'slides',
      invoke: { id: 'keys', src: 'relay' },
      initial: 'first',
      states: { first: { on: { NEXT: 'second' } }, second: { on: { NEXT: 'first' } } },
    });
  const keyboard = fromCallback(({ sendBack }) => {
    const onKey = (key: string) => sendBack({ type: key === 'ArrowRight' ? 'NEXT' : 'PREV' });
    return () => onKey('');
  });
  const ticker = fromCallback(({ sendBack }) => {
    const id = setInterval(() => sendBack({ type: 'NEXT' }), 1000);
    return () => clearInterval(id);
  });

  it('a root-level relay makes its cycles actor-driven, named, not unbounded', () => {
    const report = analyzeCycles(slides(keyboard));
    expect(joined(report.unbounded)).toEqual([]);
    expect(report.actorDriven).toMatchObject([
      { states: ['slides.first', 'slides.second'], actors: ['keys'] },
    ]);
    expect(() => assertBoundedLoops(slides(keyboard))).not.toThrow();
  });

  it('a declared external actor gates, a declared automated one drives', () => {
    expect(analyzeCycles(slides(keyboard), { actors: { keys: 'external' } })).toMatchObject({
      unbounded: [],
      actorDriven: [],
      gated: [{ gates: ['NEXT'] }],
    });
    expect(unbounded(slides(keyboard), { actors: { relay: 'automated' } })).toEqual([
      'slides.first → slides.second',
    ]);
  });

  it('a callback that starts an interval is automated by default, and is named', () => {
    expect(findUnboundedCycles(slides(ticker))).toMatchObject([
      { states: ['slides.first', 'slides.second'], actors: ['keys'] },
    ]);
  });

  it('a spawned ticker drives the events it names wherever the machine is', () => {
    const machine = setup({ actors: { ticker } }).createMachine({
      id: 'spawned',
      entry: spawnChild('ticker'),
      initial: 'a',
      states: { a: { on: { NEXT: 'b' } }, b: { on: { NEXT: 'a', OTHER: 'a' } } },
    });
    expect(findUnboundedCycles(machine)).toMatchObject([
      { states: ['spawned.a', 'spawned.b'], actors: ['ticker'] },
    ]);
  });

  it('an actor that names its events drives only those', () => {
    const auth = fromCallback(({ sendBack }) => {
      const listener = () => sendBack({ type: 'AUTH_CHANGED' });
      return listener;
    });
    expect(analyzeCycles(slides(auth))).toMatchObject({ actorDriven: [], gated: [{}] });
  });

  it('rejects an unknown actor mode or humanWait, naming the option', () => {
    expect(() => analyzeCycles(slides(keyboard), { actors: { keys: 'often' as never } })).toThrow(
      /actors\.keys must be 'external' or 'automated'/,
    );
    expect(() => findUnboundedCycles(slides(keyboard), { humanWait: 'nobody' as never })).toThrow(
      /humanWait/,
    );
    expect(() => findUnboundedCycles(slides(keyboard), { limit: 0 })).toThrow(/limit/);
  });
});

describe('a user event gates its cycle, whatever else its state holds', () => {
  it('a debounce that re-arms on every keystroke (reenter: true) waits for the keystroke', () => {
    const search = setup({ actors: { work } }).createMachine({
      id: 'search',
      initial: 'idle',
      states: {
        idle: { on: { TYPE: 'debouncing' } },
        debouncing: {
          after: { 300: 'searching' },
          on: { TYPE: { target: 'debouncing', reenter: true } },
        },
        searching: { invoke: { src: 'work', onDone: 'idle' }, on: { TYPE: 'debouncing' } },
      },
    });
    const report = analyzeCycles(search);
    expect(report.unbounded).toEqual([]);
    expect(joined(report.gated)).toEqual(
      expect.arrayContaining([
        'search.debouncing',
        'search.idle → search.debouncing → search.searching',
      ]),
    );
    expect(report.gated.every((cycle) => cycle.gates?.includes('TYPE'))).toBe(true);
  });

  it("an ancestor's guarded always or session timeout does not turn the players' moves automatic", () => {
    const game = setup({
      types: { context: {} as { lives: number } },
      guards: { lost: ({ context }) => context.lives === 0 },
    }).createMachine({
      id: 'game',
      context: { lives: 3 },
      initial: 'playing',
      states: {
        playing: {
          always: { guard: 'lost', target: 'over' },
          after: { 600000: 'over' },
          initial: 'aiming',
          states: { aiming: { on: { SHOOT: 'reloading' } }, reloading: { on: { LOAD: 'aiming' } } },
        },
        over: { on: { RESTART: 'playing' } },
      },
    });
    const report = analyzeCycles(game);
    expect(report.unbounded).toEqual([]);
    expect(report.gated.map((cycle) => cycle.gates)).toEqual(
      expect.arrayContaining([['SHOOT', 'LOAD'], ['RESTART']]),
    );
  });

  it("a state's own guarded always does not turn the user's event out of it automatic", () => {
    const form = setup({
      types: { context: {} as { errors: number } },
      guards: { tooManyErrors: ({ context }) => context.errors > 3 },
    }).createMachine({
      id: 'form',
      context: { errors: 0 },
      initial: 'editing',
      states: {
        editing: {
          always: { guard: 'tooManyErrors', target: 'locked' },
          on: { SUBMIT: 'reviewing' },
        },
        reviewing: { on: { EDIT: 'editing' } },
        locked: { on: { UNLOCK: 'editing' } },
      },
    });
    const report = analyzeCycles(form);
    expect(report.unbounded).toEqual([]);
    expect(report.gated.map((cycle) => cycle.gates)).toEqual(
      expect.arrayContaining([['SUBMIT', 'EDIT']]),
    );
  });

  it('a final child whose parent has no onDone waits for the event that leaves it', () => {
    const wizard = setup({ actors: { work } }).createMachine({
      id: 'wizard',
      initial: 'steps',
      states: {
        steps: {
          initial: 'checking',
          on: { RESTART: '.checking' },
          states: {
            checking: { invoke: { src: 'work', onDone: 'done' } },
            done: { type: 'final' },
          },
        },
      },
    });
    const report = analyzeCycles(wizard);
    expect(report.unbounded).toEqual([]);
    expect(report.gated).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          states: ['wizard.steps.checking', 'wizard.steps.done'],
          gates: ['RESTART'],
        }),
      ]),
    );
  });

  it('an event the machine raises, or sends itself, does not gate', () => {
    const relay = setup({}).createMachine({
      id: 'relay',
      initial: 'a',
      states: {
        a: { entry: raise({ type: 'GO' }), on: { GO: 'b' } },
        b: { entry: sendTo(({ self }) => self, { type: 'BACK' }), on: { BACK: 'a' } },
      },
    });
    expect(unbounded(relay)).toEqual(['relay.a → relay.b']);
  });

  it('an event raised on the way into one state does not make the same event automatic elsewhere', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'boot',
      states: {
        boot: { on: { START: { target: 'a', actions: raise({ type: 'GO' }) } } },
        a: { on: { GO: 'b' } },
        b: { on: { GO: 'a' } },
      },
    });
    expect(unbounded(machine)).toEqual([]);
  });
});

describe('parallel regions', () => {
  it('an event raised in one region drives the others', () => {
    const machine = setup({}).createMachine({
      id: 'duo',
      type: 'parallel',
      states: {
        clock: {
          initial: 'tick',
          states: {
            tick: { after: { 10: { target: 'tock', actions: raise({ type: 'GO' }) } } },
            tock: { after: { 10: { target: 'tick', actions: raise({ type: 'GO' }) } } },
          },
        },
        lamp: { initial: 'off', states: { off: { on: { GO: 'on' } }, on: { on: { GO: 'off' } } } },
      },
    });
    expect(unbounded(machine)).toEqual([
      'duo.clock.tick → duo.clock.tock',
      'duo.lamp.off → duo.lamp.on',
    ]);
  });
});

describe('eventless loops', () => {
  const flip = (guards: Record<string, unknown>, back: object) =>
    setup({
      types: { context: {} as { open: boolean } },
      guards: { isOpen: ({ context }) => context.open, ...(guards as object) },
    }).createMachine({
      id: 'flip',
      context: { open: false },
      initial: 'a',
      states: {
        a: { always: { guard: 'isOpen', target: 'b' } },
        b: { always: { target: 'a', ...back } },
      },
    });

  it('complementary guards, inline not() or a named complement, cannot spin', () => {
    expect(unbounded(flip({}, { guard: not('isOpen') }))).toEqual([]);
    expect(unbounded(flip({ isClosed: not('isOpen') }, { guard: 'isClosed' }))).toEqual([]);
  });

  it('they can once an action on the way changes the context', () => {
    const back = {
      guard: not('isOpen'),
      actions: assign({ open: ({ context }) => !context.open }),
    };
    expect(unbounded(flip({}, back))).toEqual(['flip.a → flip.b']);
  });

  it('a targetless guarded always that changes context fires once per change; one that does not spins', () => {
    const snake = (actions: unknown) =>
      setup({
        types: { context: {} as { head: number; apple: number } },
        guards: { ateApple: ({ context }) => context.head === context.apple },
      }).createMachine({
        id: 'snake',
        context: { head: 0, apple: 3 },
        initial: 'moving',
        states: {
          moving: { always: { guard: 'ateApple', actions: actions as never }, on: { STEP: {} } },
        },
      });
    expect(unbounded(snake(assign({ apple: ({ context }) => context.apple + 7 })))).toEqual([]);
    expect(unbounded(snake(() => {}))).toEqual(['snake.moving']);
    // an assignment to something the guard does not read leaves the guard true: it spins
    expect(unbounded(snake(assign({ score: 1 } as never)))).toEqual(['snake.moving']);
  });
});

describe('an automated transition guarded on context that only outside events fill', () => {
  // A report every hour, once both readings have come in since the last one: the timer fires each
  // hour, but it moves on only after a TemperatureEvent or HumidityEvent refilled what entry reset.
  type Readings = { temperature: number | null; humidity: number | null };
  const bothIn = ({ context }: { context: Readings }) =>
    context.temperature !== null && context.humidity !== null;
  const readings = (
    parts: { entry?: unknown; on?: object; after?: object; guard?: unknown } = {},
  ) =>
    setup({
      types: { context: {} as Readings },
      actors: { report: work },
      guards: { bothIn },
    }).createMachine({
      id: 'rooms',
      context: { temperature: null, humidity: null },
      initial: 'collecting',
      states: {
        collecting: {
          entry: (parts.entry ?? assign({ temperature: null, humidity: null })) as never,
          on: {
            TemperatureEvent: { actions: assign({ temperature: 20 }) },
            HumidityEvent: {
              actions: assign({
                humidity: ({ event }) => (event as never as { value: number }).value,
              }),
            },
            ...parts.on,
          },
          after: {
            3600000: { guard: (parts.guard ?? 'bothIn') as never, target: 'reporting' },
            ...parts.after,
          },
        },
        reporting: { invoke: { src: 'report', onDone: 'collecting' } },
      },
    });

  it('is gated by the events that fill it when the cycle resets it', () => {
    const report = analyzeCycles(readings());
    expect(report.unbounded).toEqual([]);
    expect(report.gated).toMatchObject([
      {
        states: ['rooms.collecting', 'rooms.reporting'],
        gates: ['TemperatureEvent', 'HumidityEvent'],
      },
    ]);
    expect(report.gated[0]?.edges[0]).toMatchObject({ kind: 'after', guard: 'bothIn' });
  });

  it('an inline guard whose reads can be seen counts the same', () => {
    expect(analyzeCycles(readings({ guard: bothIn })).gated).toHaveLength(1);
    expect(unbounded(readings({ guard: bothIn }))).toEqual([]);
  });

  it('an always guarded the same way, or a timer that re-enters its own state, is gated too', () => {
    const answer = setup({
      types: { context: {} as { answer: string | null } },
      actors: { work },
    }).createMachine({
      id: 'quiz',
      context: { answer: null },
      initial: 'asking',
      states: {
        asking: {
          entry: assign({ answer: null }),
          on: { ANSWER: { actions: assign({ answer: 'yes' }) } },
          always: { guard: ({ context }) => context.answer !== null, target: 'grading' },
        },
        grading: { invoke: { src: 'work', onDone: 'asking' } },
      },
    });
    expect(analyzeCycles(answer)).toMatchObject({ unbounded: [], gated: [{ gates: ['ANSWER'] }] });
    const ticking = readings({
      after: { 3600000: { guard: 'bothIn', target: 'collecting', reenter: true } },
    });
    expect(analyzeCycles(ticking)).toMatchObject({
      unbounded: [],
      gated: [{ states: ['rooms.collecting'] }],
    });
  });

  // Each of these can spin on its own, or might: still reported.
  it.each([
    ['nothing on the cycle resets it', { entry: [] }],
    ['the reset makes the guard true', { entry: assign({ temperature: 1, humidity: 1 }) }],
    [
      'a reset computed by a function',
      { entry: assign({ temperature: () => null, humidity: null }) },
    ],
    [
      'a reset whose keys cannot be read',
      { entry: assign(() => ({ temperature: null, humidity: null })) },
    ],
    [
      'a timer that fills it as well',
      { after: { 10: { actions: assign({ temperature: 1, humidity: 1 }) } } },
    ],
    [
      'an event the machine raises fills it',
      {
        on: {
          TemperatureEvent: {
            actions: [assign({ temperature: 20 }), raise({ type: 'HumidityEvent' })],
          },
        },
      },
    ],
    [
      'a guard that reads more than context',
      {
        guard: ({ context }: { context: Readings }) =>
          context.temperature !== null || Date.now() > 0,
      },
    ],
    [
      'a guard that reads the event',
      {
        guard: ({ context, event }: { context: Readings; event: { type: string } }) =>
          context.temperature !== null && event.type !== '',
      },
    ],
  ])('%s', (_why, parts) => {
    expect(unbounded(readings(parts as never))).toEqual(['rooms.collecting → rooms.reporting']);
  });

  it('a reset outside the cycle does not count', () => {
    const machine = setup({
      types: { context: {} as { ready: boolean } },
      actors: { work },
    }).createMachine({
      id: 'late',
      context: { ready: false },
      initial: 'boot',
      states: {
        boot: { entry: assign({ ready: false }), always: 'waiting' },
        waiting: {
          on: { READY: { actions: assign({ ready: true }) } },
          after: { 10: { guard: ({ context }) => context.ready, target: 'working' } },
        },
        working: { invoke: { src: 'work', onDone: 'waiting' } },
      },
    });
    expect(unbounded(machine)).toEqual(['late.waiting → late.working']);
  });

  it('filled by an ambiguous actor, the cycle is actor-driven and names it', () => {
    const sensor = fromCallback(({ sendBack }) => {
      sendBack({ type: 'TemperatureEvent' });
    });
    const machine = setup({
      types: { context: {} as { temperature: number | null } },
      actors: { sensor, work },
    }).createMachine({
      id: 'probe',
      invoke: { id: 'sensor', src: 'sensor' },
      context: { temperature: null },
      initial: 'collecting',
      states: {
        collecting: {
          entry: assign({ temperature: null }),
          on: { TemperatureEvent: { actions: assign({ temperature: 20 }) } },
          after: {
            10: { guard: ({ context }) => context.temperature !== null, target: 'reporting' },
          },
        },
        reporting: { invoke: { src: 'work', onDone: 'collecting' } },
      },
    });
    expect(analyzeCycles(machine)).toMatchObject({
      unbounded: [],
      actorDriven: [{ states: ['probe.collecting', 'probe.reporting'], actors: ['sensor'] }],
    });
  });
});

describe('hierarchy', () => {
  it('a transition on a parent that targets its active child re-enters it, restarting its invoke', () => {
    const build = (on: object, after?: object) =>
      setup({ actors: { work } }).createMachine({
        id: 'feed',
        initial: 'live',
        states: {
          live: {
            on,
            ...(after ? { after } : {}),
            initial: 'loading',
            states: { loading: { invoke: { id: 'fetch', src: 'work' } } },
          },
        },
      });
    expect(unbounded(build({ 'xstate.done.actor.fetch': '.loading' }))).toEqual([
      'feed.live.loading',
    ]);
    // the parent's own timer is not re-armed when only its child is re-entered
    expect(unbounded(build({}, { 1000: '.loading' }))).toEqual([]);
    // reenter: true exits the parent too, so its timer starts again
    expect(unbounded(build({}, { 1000: { target: '.loading', reenter: true } }))).toEqual([
      'feed.live.loading',
    ]);
  });

  it('a child that targets its parent exits and re-enters both, restarting its own timer', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'p',
      states: { p: { initial: 'a', states: { a: { after: { 100: '#m.p' } } } } },
    });
    expect(unbounded(machine)).toEqual(['m.p.a']);
  });

  it('runs the parent-timer case for real: the timer fires once', async () => {
    let entered = 0;
    const machine = setup({ delays: { soon: 5 } }).createMachine({
      initial: 'live',
      states: {
        live: {
          after: { soon: '.idle' },
          initial: 'idle',
          states: { idle: { entry: () => entered++ } },
        },
      },
    });
    vi.useFakeTimers();
    try {
      const actor = createActor(machine).start();
      vi.advanceTimersByTime(60); // a timer re-armed on each firing would fire a dozen times here
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
    expect(entered).toBe(2);
  });

  it("a compound state's onDone leaves from its own finals, not a nested region's", () => {
    const build = (parallel: boolean) =>
      setup({ actors: { work } }).createMachine({
        id: 'job',
        initial: 'run',
        states: {
          run: parallel
            ? {
                type: 'parallel',
                onDone: 'again',
                states: {
                  left: {
                    initial: 'x',
                    states: { x: { invoke: { src: 'work', onDone: 'ok' } }, ok: { type: 'final' } },
                  },
                  right: {
                    initial: 'y',
                    states: { y: { invoke: { src: 'work', onDone: 'ok' } }, ok: { type: 'final' } },
                  },
                },
              }
            : {
                initial: 'outer',
                onDone: 'again',
                states: {
                  outer: {
                    initial: 'x',
                    states: { x: { invoke: { src: 'work', onDone: 'ok' } }, ok: { type: 'final' } },
                  },
                },
              },
          again: { always: 'run' },
        },
      });
    expect(unbounded(build(false))).toEqual([]);
    expect(unbounded(build(true))).toEqual([
      'job.run.left.x → job.run.left.ok → job.again',
      'job.run.right.y → job.run.right.ok → job.again',
    ]);
  });
});

describe('explanations name the hop that spins', () => {
  it('a timer-driven retry is explained by its after, not the RETRY event beside it', () => {
    const fetcher = setup({ actors: { work } }).createMachine({
      id: 'fetcher',
      initial: 'loading',
      states: {
        loading: { invoke: { src: 'work', onDone: 'done', onError: 'failed' } },
        failed: { on: { RETRY: 'loading' }, after: { 1000: 'loading' } },
        done: { type: 'final' },
      },
    });
    expect(describeCycle(findUnboundedCycles(fetcher)[0] as never)).toBe(
      'fetcher.loading →(xstate.error.actor.0.fetcher.loading) fetcher.failed →(xstate.after.1000.fetcher.failed) fetcher.loading',
    );
  });

  it('a transition a child overrides is not taken in it', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'job',
      initial: 'running',
      on: { 'xstate.done.actor.task': '.idle' },
      states: {
        idle: { always: 'running' },
        running: { invoke: { id: 'task', src: 'work', onDone: 'checking' } },
        checking: { always: 'running' },
      },
    });
    expect(joined(findUnboundedCycles(machine))).toEqual(['job.running → job.checking']);
    expect(findUnboundedCycles(machine)[0]?.edges[0]).toMatchObject({
      source: 'job.running',
      target: 'job.checking',
    });
  });

  it('an inline guard is printed as one', () => {
    const machine = setup({ types: { context: {} as { n: number } } }).createMachine({
      id: 'spin',
      context: { n: 0 },
      initial: 'a',
      states: {
        a: { always: { guard: ({ context }) => context.n < 3, target: 'b' } },
        b: { always: 'a' },
      },
    });
    expect(() => assertBoundedLoops(machine)).toThrow(
      'spin.a →(always if inline guard) spin.b →(always) spin.a',
    );
  });
});

describe('blind spots', () => {
  it('a raise inside enqueueActions that feeds its own event spins', () => {
    const machine = setup({}).createMachine({
      id: 'echo',
      initial: 'on',
      states: {
        on: {
          on: {
            PING: { actions: enqueueActions(({ enqueue }) => enqueue.raise({ type: 'PING' })) },
          },
        },
      },
    });
    expect(unbounded(machine)).toEqual(['echo.on']);
  });

  it('an inline sendTo(self) is seen', () => {
    const machine = setup({}).createMachine({
      id: 'self',
      initial: 'a',
      states: {
        a: { on: { NEXT: { target: 'b', actions: sendTo(({ self }) => self, { type: 'NEXT' }) } } },
        b: { on: { NEXT: 'a' } },
      },
    });
    expect(unbounded(machine)).toEqual(['self.a → self.b']);
  });

  it('a child machine that polls forever is reported with the path through its parent', () => {
    const poller = setup({ actors: { work } }).createMachine({
      id: 'poller',
      initial: 'asking',
      states: {
        asking: { invoke: { src: 'work', onDone: 'resting' } },
        resting: { after: { 5000: 'asking' } },
      },
    });
    const app = setup({ actors: { poller } }).createMachine({
      id: 'app',
      initial: 'idle',
      states: {
        idle: { on: { SYNC: 'syncing' } },
        syncing: { invoke: { id: 'sync', src: 'poller' }, on: { STOP: 'idle' } },
      },
    });
    expect(findUnboundedCycles(app)).toMatchObject([
      { states: ['poller.asking', 'poller.resting'], within: ['app.syncing invokes sync'] },
    ]);
    expect(() => assertBoundedLoops(app)).toThrow(
      '(app.syncing invokes sync) poller.asking →(xstate.done.actor.0.poller.asking) poller.resting',
    );
  });
});
