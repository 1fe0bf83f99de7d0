import { classifyCycles } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import {
  type AnyStateMachine,
  fromCallback,
  fromEventObservable,
  fromPromise,
  type Subscribable,
  setup,
} from 'xstate';

// Which actors relay a person (their events and completion gate a cycle) is read from their
// source, and a wrong guess calls an automated cycle bounded. So each rule is tested both ways:
// the actor that only a person drives is read as gated, and the same shape with one thing that
// can send on its own (an LLM method named like a prompt, an event type that only looks like a
// DOM one, a helper that emits every frame) is never called bounded.

type Ev = { type: string };
const verdictOf = (machine: AnyStateMachine) =>
  classifyCycles(machine).map((cycle) => cycle.bound ?? cycle.verdict);

declare const session: { prompt(text: string): Promise<string> };
declare const llm: { question(text: string): Promise<string> };
declare const inquirer: { prompt(questions: object[]): Promise<Record<string, string>> };
declare const controller: AbortController;
declare const document: { addEventListener(type: string, listener: (e: Ev) => void): void };
/** A helper the check cannot read that calls back on every animation frame. */
declare const fromFrames: () => { subscribe(next: () => void): { unsubscribe(): void } };
// rxjs's names, stubbed: the check reads the source, it never runs it.
const stream: Subscribable<Ev> = { subscribe: () => ({ unsubscribe: () => {} }) };
const pipeable = { ...stream, pipe: (..._ops: unknown[]) => stream };
const fromEvent = (_target: unknown, _type: string) => pipeable;
const map = (_project: (value: never) => Ev) => (source: unknown) => source;
const merge = (..._sources: unknown[]) => pipeable;
const scan = (_step: (keys: never, e: never) => unknown, _seed: unknown) =>
  map(() => ({ type: '' }));
const framesOf = () => pipeable;

/** thinking (the actor decides) → acting (a tool) → thinking: gated only if deciding waits on a person. */
const agent = (decide: unknown) =>
  setup({
    actors: { decide: decide as never, tool: fromPromise(async () => 'done') },
  }).createMachine({
    id: 'agent',
    initial: 'thinking',
    states: {
      thinking: { invoke: { src: 'decide', input: undefined as never, onDone: 'acting' } },
      acting: { invoke: { src: 'tool', onDone: 'thinking' } },
    },
  });

/** Two states that swap on NEXT and BACK, each sent by the actor the machine invokes. */
const swapper = (relay: unknown) =>
  setup({ actors: { relay: relay as never } }).createMachine({
    id: 'swapper',
    invoke: { src: 'relay', input: undefined as never },
    initial: 'a',
    states: { a: { on: { NEXT: 'b' } }, b: { on: { BACK: 'a' } } },
  });

describe('a promise that reads the terminal', () => {
  it('gates the loop when it reads standard input or the browser prompt', () => {
    const stdin = fromPromise(
      () => new Promise<string>((resolve) => process.stdin.once('data', (d) => resolve(`${d}`))),
    );
    const browser = fromPromise(async () => globalThis.prompt?.('next?') ?? '');
    expect(verdictOf(agent(stdin))).toEqual(['gate']);
    expect(verdictOf(agent(browser))).toEqual(['gate']);
  });

  it('a model call named prompt or question runs on its own: the agent loop is unbounded', () => {
    expect(verdictOf(agent(fromPromise(async () => session.prompt('next step?'))))).toEqual([
      'unbounded',
    ]);
    expect(verdictOf(agent(fromPromise(async () => llm.question('next step?'))))).toEqual([
      'unbounded',
    ]);
  });

  it('one that reads the terminal but also sends its parent events is not a gate for them', () => {
    const reads = fromPromise(async ({ self }) => {
      self._parent?.send({ type: 'NEXT' });
      return new Promise<string>((resolve) => process.stdin.once('data', (d) => resolve(`${d}`)));
    });
    const loop = setup({ actors: { reads } }).createMachine({
      id: 'loop',
      initial: 'a',
      states: { a: { invoke: { src: 'reads' }, on: { NEXT: 'b' } }, b: { always: 'a' } },
    });
    expect(verdictOf(loop)).toEqual(['unbounded']);
  });
});

describe('a promise that waits on a person first', () => {
  it('gates the loop when its executor settles only in a click handler, or it awaits a prompt first', () => {
    const click = fromPromise(
      () => new Promise<void>((resolve) => document.addEventListener('click', () => resolve())),
    );
    const asked = fromPromise(async () => {
      const answer = await inquirer.prompt([{ name: 'next' }]);
      return llm.question(String(answer));
    });
    expect(verdictOf(agent(click))).toEqual(['gate']);
    expect(verdictOf(agent(asked))).toEqual(['gate']);
  });

  it('one that reads the terminal only to cancel, or may settle outside the handler, runs on its own', () => {
    const cancellable = fromPromise(async () => {
      process.stdin.once('data', () => controller.abort());
      return llm.question('next step?');
    });
    const raced = fromPromise(
      () =>
        new Promise<string>((resolve) => {
          process.stdin.once('data', (d) => resolve(`${d}`));
          llm.question('next step?').then(resolve);
        }),
    );
    const promptLater = fromPromise(async () => {
      const draft = await llm.question('next step?');
      return globalThis.prompt?.(draft) ?? draft;
    });
    for (const decide of [cancellable, raced, promptLater])
      expect(verdictOf(agent(decide))).toEqual(['unbounded']);
  });
});

describe('a callback that listens to DOM events', () => {
  it('relays a person when every send is in a handler for keys, inline or named', () => {
    const keys = fromCallback(({ sendBack }) => {
      const onKey = (e: Ev) => sendBack({ type: e.type === 'keydown' ? 'NEXT' : 'BACK' });
      document.addEventListener('keydown', onKey);
      document.addEventListener('keyup', (e: Ev) => sendBack({ type: e.type }));
    });
    expect(verdictOf(swapper(keys))).toEqual(['gate']);
  });

  it('a literal that is only an event type is not a listener: frames sending "change" are never a gate', () => {
    const frames = fromCallback(({ sendBack }) => {
      const sub = fromFrames().subscribe(() => sendBack({ type: 'change' }));
      return () => sub.unsubscribe();
    });
    const machine = setup({ actors: { frames } }).createMachine({
      id: 'm',
      invoke: { src: 'frames' },
      initial: 'a',
      states: { a: { on: { change: 'b' } }, b: { on: { change: 'a' } } },
    });
    expect(verdictOf(machine)).toEqual(['cant_tell']);
  });

  it('a send outside the key handler, or a handler that starts frames, is never a gate', () => {
    const mixed = fromCallback(({ sendBack }) => {
      document.addEventListener('keydown', () => sendBack({ type: 'BACK' }));
      const sub = fromFrames().subscribe(() => sendBack({ type: 'NEXT' }));
      return () => sub.unsubscribe();
    });
    const atStart = fromCallback(({ sendBack }) => {
      sendBack({ type: 'NEXT' });
      document.addEventListener('keydown', () => sendBack({ type: 'BACK' }));
    });
    const startsFrames = fromCallback(({ sendBack }) => {
      let frame = 0;
      document.addEventListener('keydown', () =>
        fromFrames().subscribe(() => sendBack({ type: ++frame % 2 ? 'NEXT' : 'BACK' })),
      );
    });
    for (const relay of [mixed, atStart, startsFrames])
      expect(verdictOf(swapper(relay))).toEqual(['cant_tell']);
  });
});

describe('an event observable over DOM events', () => {
  it('relays a person when built only from fromEvent over keys, merge, pipe and map', () => {
    const keys = fromEventObservable(() =>
      merge(
        fromEvent(document, 'keydown').pipe(map(() => ({ type: 'NEXT' }))),
        fromEvent(document, 'keyup').pipe(map(() => ({ type: 'BACK' }))),
      ),
    );
    expect(verdictOf(swapper(keys))).toEqual(['gate']);
  });

  it('the same with one source the check cannot read (a frame clock) is never a gate', () => {
    const mixed = fromEventObservable(() =>
      merge(
        fromEvent(document, 'keydown').pipe(map(() => ({ type: 'NEXT' }))),
        framesOf().pipe(map(() => ({ type: 'BACK' }))),
      ),
    );
    expect(verdictOf(swapper(mixed))).toEqual(['cant_tell']);
  });

  it("the held-out car's key input written in the actor is gated; its helper form stays cant_tell", () => {
    const drive = (relay: unknown) =>
      setup({ actors: { relay: relay as never } }).createMachine({
        id: 'car',
        invoke: { src: 'relay', input: undefined as never },
        initial: 'idle',
        states: {
          idle: { on: { THROTTLE: 'driving', REVERSE: 'reversing' } },
          driving: { on: { DRIVE_RELEASE: 'idle', REVERSE: 'reversing' } },
          reversing: { on: { DRIVE_RELEASE: 'idle', THROTTLE: 'driving' } },
        },
      });
    const toEvent = ({ s, w }: { s: boolean; w: boolean }) =>
      s && !w ? { type: 'REVERSE' } : w && !s ? { type: 'THROTTLE' } : { type: 'DRIVE_RELEASE' };
    const inline = fromEventObservable(() =>
      merge(fromEvent(document, 'keydown'), fromEvent(document, 'keyup')).pipe(
        scan(
          (keys: Record<string, boolean>, e: { type: string; key: string }) => ({
            ...keys,
            [e.key]: e.type === 'keydown',
          }),
          {},
        ),
        map(toEvent),
      ),
    );
    // The corpus car's shape: the key state comes from a helper in another module.
    const fromPressedKeys = (_keys: string[]) => pipeable;
    const helper = fromEventObservable(() => fromPressedKeys(['s', 'w']).pipe(map(toEvent)));
    const frames = fromEventObservable(() => framesOf().pipe(map(toEvent)));
    expect(verdictOf(drive(inline))).toEqual(['gate', 'gate', 'gate', 'gate', 'gate']);
    expect(verdictOf(drive(helper))).toEqual(Array(5).fill('cant_tell'));
    expect(verdictOf(drive(frames))).toEqual(Array(5).fill('cant_tell'));
  });
});
