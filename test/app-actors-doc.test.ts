import { readFileSync } from 'node:fs';
import type { LoopConfig } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

// docs/app-actors.md's snippet runs here verbatim (its prelude's steps defined for real): the
// loop drafts the topic of the event that started it, never `undefined`.

const page = readFileSync(new URL('../docs/app-actors.md', import.meta.url), 'utf8');
const thisFile = readFileSync(new URL(import.meta.url), 'utf8');
const snippet = /\/\/ DOC:start\n([\s\S]*?)\/\/ DOC:end/.exec(thisFile)?.[1]?.trim();

const seen: unknown[] = [];
const attempt: LoopConfig<string, string>['attempt'] = ({ input }) => {
  seen.push(input);
  return `A note on ${input}`;
};
const validate: LoopConfig<string, string>['validate'] = (draft) =>
  draft.includes('undefined') ? { valid: false } : { valid: true };

// DOC:start
import { createLoopMachine, type LoopOutcome } from 'loopchart';
import { assertEvent, assign, setup } from 'xstate';

const draftLoop = createLoopMachine({ attempt, validate, maxRetries: 3 });

const app = setup({
  types: {
    context: {} as { outcome?: LoopOutcome<string> },
    events: {} as { type: 'draft'; topic: string } | { type: 'cancel' },
  },
  actors: { draftLoop },
}).createMachine({
  initial: 'idle',
  context: {},
  states: {
    idle: { on: { draft: 'drafting' } },
    drafting: {
      invoke: {
        src: 'draftLoop',
        // the event that entered this state carries what to draft
        input: ({ event }) => {
          assertEvent(event, 'draft');
          return { input: event.topic };
        },
        onDone: [
          {
            guard: ({ event }) => event.output.ok,
            target: 'review',
            actions: assign({ outcome: ({ event }) => event.output }),
          },
          { target: 'failed', actions: assign({ outcome: ({ event }) => event.output }) },
        ],
      },
      on: { cancel: 'idle' }, // leaving the state aborts the running step
    },
    review: {},
    failed: {},
  },
});
// DOC:end

describe("docs/app-actors.md's app machine", () => {
  it('is the snippet of the page, verbatim', () => {
    expect(snippet).toMatch(/^import \{ createLoopMachine/);
    expect(page).toContain(snippet);
  });

  it('runs the loop on the topic of the draft event, and keeps its outcome', async () => {
    const actor = createActor(app).start();
    actor.send({ type: 'draft', topic: 'loops' });
    const done = await waitFor(actor, (s) => s.matches('review') || s.matches('failed'));
    expect(done.value).toBe('review');
    expect(seen).toEqual(['loops']);
    expect(done.context.outcome).toMatchObject({ status: 'proceed', candidate: 'A note on loops' });
    actor.stop();
  });
});
