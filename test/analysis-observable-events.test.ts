import { classifyCycles, sendsOnly } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, fromEventObservable, type Subscribable, setup } from 'xstate';

// What an event observable may send its parent, read from its source. The literal event types it
// names are the whole answer only when every stream it builds can be read; a helper it cannot
// read may emit any event, so a cycle on an event it does not name is never called gated on that
// guess: it is cant_tell, with sendsOnly([...the types it names]) as the marker.

type Ev = { type: string };
const stream: Subscribable<Ev> = { subscribe: () => ({ unsubscribe: () => {} }) };
const pipeable = { ...stream, pipe: (..._ops: unknown[]) => stream };
// rxjs's names, stubbed: the check reads the source, it never runs it.
const merge = (..._sources: unknown[]) => stream;
const map = (_project: (value: never) => unknown) => (source: unknown) => source;
const interval = (_ms: number) => pipeable;
/** Helpers the check cannot read: a frame clock, and a stream of any events. */
const fromFrames = () => pipeable;
const ticker = () => stream;

const verdicts = (machine: AnyStateMachine) =>
  classifyCycles(machine).map((cycle) => cycle.bound ?? cycle.verdict);
/** a ⇄ b on NEXT, with the observable invoked beside it. */
const swapper = (relay: unknown) =>
  setup({ actors: { relay: relay as never } }).createMachine({
    id: 'swapper',
    invoke: { src: 'relay', input: undefined as never },
    initial: 'a',
    states: { a: { on: { NEXT: 'b' } }, b: { on: { NEXT: 'a' } } },
  });

describe('an event observable that names its event types', () => {
  it('built only from rxjs, it sends only the types it names: NEXT is outside input', () => {
    const log = fromEventObservable(() => interval(10).pipe(map(() => ({ type: 'LOG' }))));
    expect(verdicts(swapper(log))).toEqual(['gate']);
    const next = fromEventObservable(() => interval(10).pipe(map(() => ({ type: 'NEXT' }))));
    expect(verdicts(swapper(next))).toEqual(['unbounded']);
  });

  it('merged with a stream it cannot read, it may send NEXT: cant_tell, settled by sendsOnly', () => {
    const mixed = fromEventObservable(() =>
      merge(fromFrames().pipe(map(() => ({ type: 'LOG' }))), ticker()),
    );
    const [cycle] = classifyCycles(swapper(mixed));
    expect(cycle).toMatchObject({
      verdict: 'cant_tell',
      marker: "sendsOnly(['LOG'], relay)",
      settle: [{ marker: 'sendsOnly', actor: 'relay', types: ['LOG'] }],
    });
    expect(verdicts(swapper(sendsOnly(['LOG'], mixed)))).toEqual(['gate']);
    expect(verdicts(swapper(sendsOnly(['LOG', 'NEXT'], mixed)))).toEqual(['cant_tell']);
  });

  it('a ticking one over a helper is not called unbounded on a guess either', () => {
    const ticking = fromEventObservable(() =>
      merge(interval(10).pipe(map(() => ({ type: 'LOG' }))), ticker()),
    );
    expect(verdicts(swapper(ticking))).toEqual(['cant_tell']);
    expect(verdicts(swapper(sendsOnly(['LOG', 'NEXT'], ticking)))).toEqual(['unbounded']);
  });

  it('a computed event type beside a literal one may be any event', () => {
    const names = ['LOG', 'NEXT'];
    const computed = fromEventObservable(() =>
      interval(10).pipe(map((n: number) => (n > 3 ? { type: 'LOG' } : { type: names[n % 2] }))),
    );
    expect(verdicts(swapper(computed))).toEqual(['unbounded']);
  });
});
