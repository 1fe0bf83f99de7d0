import { createLoopMachine, type LoopConfig, type LoopOutcome } from 'loopchart';
import { assign, createActor, setup } from 'xstate';
import { answerEvent, nthAnswer } from './answerEvent.js';
import type { Combination } from './combination.js';
import type { RunState } from './runState.js';

/** The loop spawned inside an app machine; pauses are answered by sending the child events. */
export function inAppActor(
  c: Combination,
  config: LoopConfig<unknown, unknown>,
  signal: AbortSignal,
  state: RunState,
): Promise<LoopOutcome> {
  const app = setup({
    types: { context: {} as { outcome?: LoopOutcome } },
    actors: { loop: createLoopMachine(config) },
  }).createMachine({
    context: {},
    initial: 'working',
    states: {
      working: {
        invoke: {
          id: 'loop',
          src: 'loop',
          input: { input: 'task' },
          onDone: {
            target: 'done',
            actions: assign({ outcome: ({ event }) => event.output as LoopOutcome }),
          },
        },
      },
      done: { type: 'final' },
    },
  });
  state.calls += 1;
  return new Promise((resolve, reject) => {
    const actor = createActor(app);
    let answers = 0;
    const abort = () => child?.send({ type: 'loop.abort', reason: 'the user cancelled' });
    actor.subscribe({
      complete: () => {
        signal.removeEventListener('abort', abort);
        resolve(actor.getSnapshot().context.outcome as LoopOutcome);
      },
      error: reject,
    });
    actor.start();
    const child = actor.getSnapshot().children.loop;
    child?.subscribe((snapshot) => {
      if (snapshot.status !== 'active' || !snapshot.hasTag('waitsForHuman')) return;
      let answer = nthAnswer(c.answers, answers++);
      if (answer === 'bad') answer = 'continue'; // unchecked here: answer checking is resumeLoop's
      const event = answerEvent(answer, snapshot.context.pending);
      state.segments += 1;
      state.calls += 1;
      queueMicrotask(() => child.send(event as never));
    });
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}
