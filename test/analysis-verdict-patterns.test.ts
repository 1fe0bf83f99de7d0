import {
  assertBoundedLoops,
  budgetGuard,
  classifyCycles,
  drainsQueue,
  gatedBy,
  isUnboundedLoopError,
  sendsOnly,
} from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import {
  type AnyStateMachine,
  assign,
  createMachine,
  enqueueActions,
  fromCallback,
  fromEventObservable,
  fromObservable,
  fromPromise,
  raise,
  type Subscribable,
  sendParent,
  setup,
  spawnChild,
} from 'xstate';
import { eventsOf } from '../src/tools/analysis/sentEvents.js';

// The patterns of issue 30, both ways: what the check says before and after the marker that
// decides each, and that nothing it cannot see through is ever called bounded.

declare const socket: { on(event: string, listener: () => void): void };
const verdicts = (machine: AnyStateMachine) =>
  classifyCycles(machine).map((cycle) => `${cycle.verdict}: ${cycle.states.join(' → ')}`);
const cycleThrough = (machine: AnyStateMachine, state: string) =>
  classifyCycles(machine).find((cycle) => cycle.states.includes(state));
const work = fromPromise(async () => 'ok');
declare const model: { complete(prompt: string): Promise<string> };
const quiet = { warn: false } as const;

describe('an agent loop driven by a decision actor', () => {
  // The model picks the next event and the actor sends it to the agent: guess → check → guess.
  const decide = fromPromise(async ({ self }) => {
    const answer = await model.complete('next step?');
    self._parent?.send(JSON.parse(answer));
  });
  const agent = (guards: Record<string, (...args: never[]) => boolean> = {}) =>
    setup({
      types: { context: {} as { steps: number } },
      actors: { decide, runTool: work },
      guards: { underStepCap: () => true, ...guards },
    }).createMachine({
      id: 'agent',
      context: { steps: 0 },
      initial: 'thinking',
      states: {
        thinking: {
          invoke: { id: 'decide', src: 'decide' },
          on: {
            CALL_TOOL: {
              guard: 'underStepCap',
              target: 'acting',
              actions: assign({ steps: ({ context }) => context.steps + 1 }),
            },
            FINISH: 'done',
          },
        },
        acting: { invoke: { src: 'runTool', onDone: 'thinking' } },
        done: { type: 'final' },
      },
    });

  it('is unbounded, driven by the decision actor, while the step cap is an unmarked guard', () => {
    const [cycle] = classifyCycles(agent());
    expect(cycle).toMatchObject({
      verdict: 'unbounded',
      states: ['agent.thinking', 'agent.acting'],
      actors: ['decide'],
    });
    expect(cycle?.reason).toContain('`underStepCap`');
    expect(() => assertBoundedLoops(agent())).toThrow(
      /agent\.thinking →\(CALL_TOOL if underStepCap\)/,
    );
  });

  it('is bounded once the step cap is marked budgetGuard', () => {
    const capped = agent({ underStepCap: budgetGuard(() => true) });
    expect(verdicts(capped)).toEqual(['bounded: agent.thinking → agent.acting']);
    expect(cycleThrough(capped, 'agent.acting')?.bound).toBe('budget');
    expect(() => assertBoundedLoops(capped, { strict: true })).not.toThrow();
  });

  it('is unbounded the same when the actor names its events, sends through parent.send, or is a callback awaiting the model', () => {
    const named = fromPromise(async ({ self }) => {
      const answer = await model.complete('next step?');
      const parent = self._parent;
      parent?.send(answer === 'done' ? { type: 'FINISH' } : { type: 'CALL_TOOL' });
    });
    const callback = fromCallback(({ sendBack }) => {
      void model.complete('next step?').then((answer) => sendBack(JSON.parse(answer)));
    });
    for (const logic of [named, callback]) {
      const machine = agent().provide({ actors: { decide: logic as never } });
      expect(cycleThrough(machine, 'agent.acting')?.verdict).toBe('unbounded');
    }
  });

  it('is bounded when the actor is marked as waiting on a person, or as never sending CALL_TOOL', () => {
    const gated = agent().provide({ actors: { decide: gatedBy('user', decide) } });
    expect(cycleThrough(gated, 'agent.acting')).toMatchObject({
      verdict: 'bounded',
      bound: 'gate',
    });
    const finishesOnly = agent().provide({ actors: { decide: sendsOnly(['FINISH'], decide) } });
    expect(cycleThrough(finishesOnly, 'agent.acting')).toMatchObject({
      verdict: 'bounded',
      gates: ['CALL_TOOL'],
    });
  });

  it('a child machine that sends its parent events is never taken as gated', () => {
    const child = setup({}).createMachine({
      id: 'planner',
      initial: 'planning',
      states: { planning: { entry: sendParent({ type: 'CALL_TOOL' }) } },
    });
    const machine = agent().provide({ actors: { decide: child as never } });
    expect(cycleThrough(machine, 'agent.acting')?.verdict).not.toBe('bounded');
  });
});

type Queue = { queue: Array<{ type: string }> };

describe('a queue replayed by the lap that drains it', () => {
  // Requests that arrive while busy are queued; back in idle, the first one is replayed.
  const worker = (replay: unknown, onDone: unknown = 'idle') =>
    setup({
      types: { context: {} as { queue: Array<{ type: string }> } },
      actors: { work },
    }).createMachine({
      id: 'worker',
      context: { queue: [] },
      initial: 'idle',
      states: {
        idle: { entry: replay as never, on: { REQUEST: 'busy' } },
        busy: {
          invoke: { src: 'work', onDone: onDone as never },
          on: {
            REQUEST: {
              actions: assign({ queue: ({ context, event }) => [...context.queue, event] }),
            },
          },
        },
      },
    });
  const drained = enqueueActions(({ context, enqueue }) => {
    if (context.queue.length === 0) return;
    enqueue.raise(context.queue[0] as { type: string });
    enqueue.assign({ queue: ({ context }: { context: Queue }) => context.queue.slice(1) });
  });

  it('is bounded by the queue: each lap removes the item it replays, only REQUEST adds', () => {
    const [cycle] = classifyCycles(worker(drained));
    expect(cycle).toMatchObject({ verdict: 'bounded', bound: 'queue' });
    expect(cycle?.reason).toContain('queue queue (refilled by REQUEST)');
    expect(() => assertBoundedLoops(worker(drained), { strict: true })).not.toThrow();
  });

  it('a replay that keeps its item is never bounded: cant_tell, with drainsQueue as the marker', () => {
    const keeps = raise(({ context }: { context: { queue: Array<{ type: string }> } }) => {
      return context.queue[0] as { type: string };
    });
    const [cycle] = classifyCycles(worker(keeps));
    expect(cycle).toMatchObject({ verdict: 'cant_tell' });
    expect(cycle?.marker).toContain("drainsQueue('queue'");
    expect(cycle?.settle).toEqual([
      { marker: 'drainsQueue', queue: 'queue', where: 'entry of worker.idle' },
    ]);
  });

  it('a queue the machine refills on its own is cant_tell, and drainsQueue(...) settles it', () => {
    const requeue = {
      target: 'idle',
      actions: assign({ queue: ({ context }) => [...context.queue, { type: 'REQUEST' }] }),
    };
    const [cycle] = classifyCycles(worker(drained, requeue));
    expect(cycle?.verdict).toBe('cant_tell');
    const [marked] = classifyCycles(worker(drainsQueue('queue', drained), requeue));
    expect(marked).toMatchObject({ verdict: 'bounded', bound: 'queue' });
  });
});

describe('a callback that sends the event its invoke input names', () => {
  const ticker = fromCallback<{ type: string }, { event: string }>(({ sendBack, input }) => {
    const id = setInterval(() => sendBack({ type: input.event }), 1000);
    return () => clearInterval(id);
  });
  const editorWith = (input: unknown) =>
    setup({
      types: { context: {} as { next: string } },
      actors: { ticker, save: work },
    }).createMachine({
      id: 'editor',
      context: { next: 'AUTOSAVE' },
      initial: 'editing',
      states: {
        editing: {
          invoke: { src: 'ticker', input: input as never },
          on: { AUTOSAVE: 'saving', PUBLISH: 'publishing' },
        },
        saving: { invoke: { src: 'save', onDone: 'editing' } },
        publishing: {
          invoke: { src: 'ticker', input: () => ({ event: 'POLL' }) },
          on: { POLL: 'checking' },
        },
        checking: { invoke: { src: 'save', onDone: 'publishing' }, on: { CANCEL: 'editing' } },
      },
    });
  const editor = editorWith({ event: 'AUTOSAVE' });

  it('drives only the events its inputs name: the person-driven PUBLISH cycle is not unbounded', () => {
    expect(verdicts(editor)).toEqual([
      'unbounded: editor.editing → editor.saving',
      'unbounded: editor.publishing → editor.checking',
      'bounded: editor.editing → editor.publishing → editor.checking',
    ]);
  });

  it('an input it cannot read leaves the event unknown: every event counts as sent', () => {
    const gatesOf = (machine: AnyStateMachine) =>
      classifyCycles(machine)
        .find((cycle) => cycle.states.length === 3)
        ?.gates?.filter((gate) => gate !== 'CANCEL');
    expect(gatesOf(editorWith({ event: 'AUTOSAVE' }))).toEqual(['PUBLISH']);
    const computed = editorWith(({ context }: { context: { next: string } }) => ({
      event: context.next,
    }));
    expect(gatesOf(computed)).toEqual([]);
  });
});

describe('an observable that completes when a person acts on a device', () => {
  const never: Subscribable<string> = { subscribe: () => ({ unsubscribe: () => {} }) };
  const device = { confirmOnScreen: () => never };
  const confirm = fromObservable(() => device.confirmOnScreen());
  const ticking = fromObservable(() => interval(1000));
  function interval(_ms: number): Subscribable<string> {
    return never;
  }
  const wallet = (logic: unknown) =>
    setup({ actors: { confirm: logic as typeof confirm, sign: work } }).createMachine({
      id: 'wallet',
      initial: 'confirming',
      states: {
        confirming: { invoke: { id: 'confirm', src: 'confirm', onDone: 'signing' } },
        signing: { invoke: { src: 'sign', onDone: 'confirming' } },
      },
    });

  it('is cant_tell, not unbounded, with gatedBy as the marker', () => {
    const [cycle] = classifyCycles(wallet(confirm));
    expect(cycle).toMatchObject({ verdict: 'cant_tell', actors: ['confirm'] });
    expect(cycle?.marker).toBe("gatedBy('user', confirm)");
    expect(cycle?.settle).toEqual([{ marker: 'gatedBy', actor: 'confirm' }]);
    expect(() => assertBoundedLoops(wallet(confirm), quiet)).not.toThrow();
  });

  it('is bounded once marked gatedBy, and unbounded when the observable is a timer', () => {
    expect(classifyCycles(wallet(gatedBy('user', confirm)))).toMatchObject([
      { verdict: 'bounded', bound: 'gate' },
    ]);
    expect(classifyCycles(wallet(ticking))).toMatchObject([{ verdict: 'unbounded' }]);
  });
});

describe('a raise of literal and computed types together', () => {
  const stepper = (entry: unknown) =>
    setup({ types: { context: {} as { next: string } } }).createMachine({
      id: 'stepper',
      context: { next: 'STEP' },
      initial: 'a',
      states: {
        a: { entry: entry as never, on: { STEP: 'b' } },
        b: { always: 'a' },
      },
    });
  const mixed = enqueueActions(({ context, enqueue }) => {
    enqueue.raise({ type: 'LOG' });
    enqueue.raise({ type: context.next });
  });

  it('is not missed: the computed raise may send STEP, so the loop is never called bounded', () => {
    expect(verdicts(stepper(mixed))).toEqual(['cant_tell: stepper.a → stepper.b']);
    expect(cycleThrough(stepper(mixed), 'stepper.a')?.marker).toBe(
      'sendsOnly([…], enqueueActions(…))',
    );
    expect(cycleThrough(stepper(mixed), 'stepper.a')?.settle).toEqual([
      { marker: 'sendsOnly', where: 'entry of stepper.a' },
    ]);
  });

  it('sendsOnly decides it either way', () => {
    expect(verdicts(stepper(sendsOnly(['LOG', 'STEP'], mixed)))).toEqual([
      'unbounded: stepper.a → stepper.b',
    ]);
    expect(verdicts(stepper(sendsOnly(['LOG'], mixed)))).toEqual([
      'bounded: stepper.a → stepper.b',
    ]);
  });

  it('a helper handed enqueue may raise anything; a computed type traced to literals is read', () => {
    const helper = (..._args: unknown[]) => undefined;
    const opaque = enqueueActions(({ context, enqueue }) => {
      enqueue.raise({ type: 'LOG' });
      helper(enqueue, context);
    });
    expect(verdicts(stepper(opaque))).toEqual(['cant_tell: stepper.a → stepper.b']);
    const traced = raise(({ context }: { context: { next: string } }) => ({
      type: context.next === 'STEP' ? 'STEP' : 'LOG',
    }));
    expect(verdicts(stepper(traced))).toEqual(['unbounded: stepper.a → stepper.b']);
  });
});

describe('assertBoundedLoops on cycles it cannot decide', () => {
  const keys = fromCallback(({ sendBack }) => {
    socket.on('message', () => sendBack({ type: 'NEXT' }));
  });
  const slides = setup({ actors: { keys } }).createMachine({
    id: 'slides',
    invoke: { id: 'keys', src: 'keys' },
    initial: 'first',
    states: { first: { on: { NEXT: 'second' } }, second: { on: { NEXT: 'first' } } },
  });

  it('warns by default with the marker to add, and fails in strict mode', () => {
    const warnings: string[] = [];
    expect(() => assertBoundedLoops(slides, { warn: (text) => warnings.push(text) })).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("marker: gatedBy('user', keys)");
    let error: unknown;
    try {
      assertBoundedLoops(slides, { strict: true });
    } catch (caught) {
      error = caught;
    }
    expect(isUnboundedLoopError(error)).toBe(true);
    expect((error as { undecided: unknown[] }).undecided).toHaveLength(1);
    expect(String(error)).toContain('cannot decide (strict mode)');
  });

  it('passes strict mode once the marker is added', () => {
    const marked = slides.provide({ actors: { keys: gatedBy('user', keys) } });
    expect(() => assertBoundedLoops(marked, { strict: true })).not.toThrow();
  });

  it('rejects a strict or warn option of the wrong type, naming it', () => {
    expect(() => assertBoundedLoops(slides, { strict: 'yes' as never })).toThrow(/strict/);
    expect(() => assertBoundedLoops(slides, { warn: 'loud' as never })).toThrow(/warn/);
    expect(() => gatedBy('', keys)).toThrow(/gatedBy: who/);
    expect(() => sendsOnly('NEXT' as never, keys)).toThrow(/sendsOnly: types/);
    expect(() => drainsQueue('', keys)).toThrow(/drainsQueue: key/);
  });
});

describe('an actor that reads the terminal', () => {
  it('waits for outside input: its completion gates the cycle', () => {
    const ask = fromPromise<string, string>(async ({ input }) => {
      return new Promise<string>((resolve) => {
        console.log(input);
        process.stdin.once('data', (data) => resolve(data.toString()));
      });
    });
    const machine = setup({ actors: { ask, work } }).createMachine({
      id: 'repl',
      initial: 'reading',
      states: {
        reading: { invoke: { src: 'ask', input: '> ', onDone: 'evaluating' } },
        evaluating: { invoke: { src: 'work', onDone: 'reading' } },
      },
    });
    expect(classifyCycles(machine)).toMatchObject([{ verdict: 'bounded', bound: 'gate' }]);
  });
});

describe('an actor that relays UI events', () => {
  it("relays a person: the keys it listens to gate the slides' cycle", () => {
    const keys = fromCallback(({ sendBack }) => {
      const onKey = (e: { key: string }) =>
        sendBack({ type: e.key === 'ArrowRight' ? 'NEXT' : 'PREV' });
      window.addEventListener('keydown', onKey);
      return () => window.removeEventListener('keydown', onKey);
    });
    const slides = setup({ actors: { keys } }).createMachine({
      id: 'slides',
      invoke: { id: 'keys', src: 'keys' },
      initial: 'first',
      states: { first: { on: { NEXT: 'second' } }, second: { on: { PREV: 'first' } } },
    });
    expect(classifyCycles(slides)).toMatchObject([{ verdict: 'bounded', bound: 'gate' }]);
  });
});

describe('reading sent events', () => {
  it('an event observable may send every type its pipe names, not only the first', () => {
    const never: Subscribable<{ type: string }> = { subscribe: () => ({ unsubscribe: () => {} }) };
    const keys = (_map: (down: boolean) => { type: string }) => never;
    const keyboard = fromEventObservable(() =>
      keys((down) => (down ? { type: 'GO' } : { type: 'STOP' })),
    );
    const car = (logic: typeof keyboard) =>
      setup({ actors: { keyboard: logic } }).createMachine({
        id: 'car',
        invoke: { src: 'keyboard' },
        initial: 'idle',
        states: { idle: { on: { GO: 'driving' } }, driving: { on: { STOP: 'idle' } } },
      });
    expect(classifyCycles(car(keyboard))).toMatchObject([
      { verdict: 'cant_tell', actors: ['0.car'] },
    ]);
    // The same shape over a helper that emits every animation frame (the held-out car's own
    // velocity observables are written so) spins on its own: a helper the check cannot read is
    // never taken as a person's input, whatever its name.
    const frames = (_map: (frame: number) => { type: string }) => never;
    const ticker = fromEventObservable(() =>
      frames((frame) => (frame % 2 ? { type: 'GO' } : { type: 'STOP' })),
    );
    expect(classifyCycles(car(ticker))).toMatchObject([{ verdict: 'cant_tell' }]);
  });

  it('an expression that only starts with an object literal is read whole', () => {
    expect([...eventsOf("{ type: 'A' } || { type: 'B' }", []).types]).toEqual(['A', 'B']);
    expect(eventsOf('{ type: next }.type', []).untraced).toEqual([{ kind: 'computed' }]);
  });

  it('a conditional between two event objects may raise either', () => {
    const either = raise(({ context }: { context: { first: boolean } }) =>
      context.first ? { type: 'A' } : { type: 'B' },
    );
    const machine = setup({ types: { context: {} as { first: boolean } } }).createMachine({
      id: 'm',
      context: { first: true },
      initial: 'a',
      states: { a: { entry: either, on: { B: 'b' } }, b: { always: 'a' } },
    });
    expect(classifyCycles(machine)).toMatchObject([{ verdict: 'unbounded' }]);
  });
});

describe('actors the check cannot find', () => {
  it('a spawned src with no implementation counts as able to send anything, without throwing', () => {
    const machine = createMachine({
      id: 'm',
      entry: spawnChild('ghost' as never),
      initial: 'a',
      states: { a: { on: { NEXT: 'b' } }, b: { on: { BACK: 'a' } } },
    });
    expect(classifyCycles(machine)).toMatchObject([{ verdict: 'cant_tell', actors: ['ghost'] }]);
  });
});
