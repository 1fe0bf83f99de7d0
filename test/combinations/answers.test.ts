/**
 * Answers are untrusted input (SPEC §6): a malformed answer to a paused run, one outside the
 * question's options, or one that fails the config's answer schemas is refused with
 * `CheckpointError` `invalid_answer`; the stored row stays byte-identical and the run is still
 * paused and answerable.
 */
import {
  type CheckpointStore,
  clarificationRequest,
  isCheckpointError,
  type LoopConfig,
  MemoryCheckpointStore,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

interface Draft {
  title: string;
  words: number;
}

const reviewed: LoopConfig<string, Draft> = {
  review: { beforeProceed: true },
  attempt: ({ input }) => ({ title: input, words: 10 }),
  validate: (draft) =>
    typeof draft.title.toUpperCase() === 'string' ? { valid: true } : { valid: false },
  answers: {
    candidate: z.object({ title: z.string(), words: z.number().int() }),
    input: z.string().min(1),
  },
};

const asking: LoopConfig<string, string> = {
  attempt: ({ answers }) =>
    answers.length === 0
      ? clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] })
      : `report for ${String(answers[0]?.answer)}`,
  validate: () => ({ valid: true }),
};

const hostile = new Proxy(
  {},
  {
    ownKeys: () => {
      throw new Error('no keys for you');
    },
  },
);

const stores: Array<[string, () => CheckpointStore]> = [
  ['MemoryCheckpointStore', () => new MemoryCheckpointStore()],
  ['SqliteCheckpointStore', () => new SqliteCheckpointStore(':memory:')],
];

describe.each(stores)('answers to a paused run on %s', (_name, open) => {
  it.each([
    ['null', null],
    ['a string', 'review.continue'],
    ['an array', [{ type: 'review.continue' }]],
    ['an object whose keys cannot be read', hostile],
    ['an unknown type', { type: 'review.approve' }],
    ['a type that is not a string', { type: 42 }],
    ['review.modify with neither input nor candidate', { type: 'review.modify' }],
    [
      'review.modify with both',
      { type: 'review.modify', input: 'x', candidate: { title: 'x', words: 1 } },
    ],
    [
      'review.modify whose candidate fails the schema (a typo: 42)',
      { type: 'review.modify', candidate: 42 },
    ],
    ['review.modify whose input fails the schema', { type: 'review.modify', input: '' }],
    ['review.retry whose feedback is not a string', { type: 'review.retry', feedback: { x: 1 } }],
    ['review.abort whose reason is not a string', { type: 'review.abort', reason: 7 }],
  ])('refuses %s, keeps the row byte-identical and stays answerable', async (_label, answer) => {
    const store = open();
    const paused = await runLoop(reviewed, 'memo', { store, runId: 'r' });
    expect(paused.status).toBe('paused');
    const before = await store.load('r');
    const error = await resumeLoop(reviewed, { store, runId: 'r', event: answer as never }).catch(
      (e: unknown) => e,
    );
    expect(isCheckpointError(error) && error.code).toBe('invalid_answer');
    expect(await store.load('r')).toEqual(before);
    const outcome = await resumeLoop(reviewed, {
      store,
      runId: 'r',
      event: { type: 'review.modify', candidate: { title: 'edited', words: 3 } },
    });
    expect(outcome.status).toBe('paused'); // the edited candidate is validated and reviewed again
    const done = await resumeLoop(reviewed, {
      store,
      runId: 'r',
      event: { type: 'review.continue' },
    });
    expect(done).toMatchObject({ status: 'proceed', candidate: { title: 'edited', words: 3 } });
    await store.close?.();
  });

  it.each([
    ['an answer outside the options', { type: 'clarification.answer', answer: '2024' }],
    ['an answer that is not a string', { type: 'clarification.answer', answer: 2025 }],
    ['no answer at all', { type: 'clarification.answer' }],
  ])('refuses %s to a question with options', async (_label, answer) => {
    const store = open();
    await runLoop(asking, 'q', { store, runId: 'ask' });
    const before = await store.load('ask');
    const error = await resumeLoop(asking, { store, runId: 'ask', event: answer as never }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'invalid_answer',
      message: expect.stringMatching(/answer/),
    });
    expect(await store.load('ask')).toEqual(before);
    const outcome = await resumeLoop(asking, {
      store,
      runId: 'ask',
      event: { type: 'clarification.answer', answer: '2026' },
    });
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'report for 2026' });
    await store.close?.();
  });
});

describe('answer schemas', () => {
  it('pass the schema’s output on: a zod transform reaches the loop', async () => {
    const store = new MemoryCheckpointStore();
    const config: LoopConfig<string, string> = {
      attempt: ({ answers }) =>
        answers.length === 0
          ? clarificationRequest({ question: 'How many?' })
          : `n=${JSON.stringify(answers[0]?.answer)}`,
      validate: () => ({ valid: true }),
      answers: { clarification: z.string().transform((s) => Number(s)) },
    };
    await runLoop(config, 'q', { store, runId: 'n' });
    const outcome = await resumeLoop(config, {
      store,
      runId: 'n',
      event: { type: 'clarification.answer', answer: '12' },
    });
    expect(outcome).toMatchObject({ status: 'proceed', candidate: 'n=12' });
  });

  it('are checked at creation: something that is not a Standard Schema is a config error', async () => {
    await expect(
      runLoop({ ...asking, answers: { candidate: { parse: () => 1 } } as never }, 'q'),
    ).rejects.toThrow(/answers/);
  });
});

describe('answer schemas are typed by the loop', () => {
  it('a candidate schema must produce the loop’s candidate type (checked by tsc)', () => {
    const draft = z.object({ title: z.string(), words: z.number() });
    const typed: LoopConfig<string, Draft> = { ...reviewed, answers: { candidate: draft } };
    // @ts-expect-error a schema of numbers cannot check a Draft
    const wrong: LoopConfig<string, Draft> = { ...reviewed, answers: { candidate: z.number() } };
    expect(typed.answers?.candidate).toBe(draft);
    expect(wrong.answers?.candidate).toBeDefined();
  });
});
