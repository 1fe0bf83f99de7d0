import { createActor, toPromise, waitFor } from 'xstate';
import type { LoopOutcome } from '../../../core/vocabulary/outcome.js';
import { clarificationRequest } from '../../../core/vocabulary/stepResults.js';
import {
  type BatteryCheck,
  type BuildMachine,
  CheckFailed,
  decisionsOf,
  expectEqual,
  expectThat,
  runChecked,
  withinRunTimeout,
} from './batteryCheck.js';
import { verdicts } from './scripted.js';

const REQUIRED = ['scope', 'risks', 'owner'];

/** A validator that names what the draft lacks; a writer that adds what the feedback names. */
const missingSections = (draft: string) => REQUIRED.filter((word) => !draft.includes(word));
const checkSections = (draft: string) => {
  const missing = missingSections(draft);
  return missing.length === 0
    ? verdicts.valid()
    : verdicts.correctable(`missing section: ${missing[0]}`);
};

/** The loop is closed when the attempt reads the feedback: SPEC §11's closed-loop cases. */
export const closedLoopChecks: BatteryCheck[] = [
  {
    name: 'closed loop exits naturally',
    async run(build) {
      let draft = 'plan: scope';
      const outcome = await runChecked(build, {
        attempt: ({ feedback }) => {
          if (feedback) draft = `${draft} ${feedback.message.split(': ')[1]}`;
          return draft;
        },
        validate: (draft) => checkSections(String(draft)),
        maxRetries: 5,
      });
      expectEqual('status', outcome.status, 'proceed');
      expectEqual('iterations', outcome.iterations, 2);
      return 'fixed what the feedback named: proceed after 2 of 5 refines';
    },
  },
  {
    name: 'closed loop cap exhausted',
    async run(build) {
      const outcome = await runChecked(build, {
        attempt: ({ attempt }) => `plan v${attempt}: scope`,
        validate: (draft) => verdicts.correctable(`${String(draft)} still lacks risks`),
        maxRetries: 3,
      });
      expectEqual('status', outcome.status, 'iteration_exhausted');
      expectEqual('[iterations, attempts]', [outcome.iterations, outcome.attempts], [3, 4]);
      expectEqual('error.cap', outcome.status === 'iteration_exhausted' && outcome.error.cap, 3);
      return 'iteration_exhausted at 3/3, cap named in the error';
    },
  },
  {
    name: 'stall detected',
    async run(build) {
      const outcome = await runChecked(build, {
        attempt: () => 'the same plan',
        validate: () => verdicts.correctable('missing section: risks'),
        maxRetries: 10,
        stall: { after: 3 },
      });
      expectEqual('status', outcome.status, 'stalled');
      expectEqual('attempts', outcome.attempts, 3);
      expectThat(
        outcome.status === 'stalled' && Boolean(outcome.error.fingerprint),
        'expected the error to name the repeated fingerprint',
      );
      return 'stalled after 3 identical rounds, 8 of 10 retries saved';
    },
  },
  {
    name: 'varying output not stalled',
    async run(build) {
      const outcome = await runChecked(build, {
        attempt: ({ attempt }) => `plan v${attempt}`,
        validate: () => verdicts.correctable('missing section: risks'),
        maxRetries: 4,
        stall: { after: 2 },
      });
      expectEqual('status', outcome.status, 'iteration_exhausted');
      expectEqual('iterations', outcome.iterations, 4);
      return 'new drafts each round: ran to the cap (4/4), no stall';
    },
  },
  {
    name: 'human-gated: review',
    run: reviewGate,
  },
  {
    name: 'human-gated: clarification',
    run: clarificationGate,
  },
];

/** Waits, then proves the loop did nothing on its own while a person was asked. */
async function expectWaitingForHuman(actor: { getSnapshot(): { hasTag(tag: string): boolean } }) {
  await waitFor(
    actor as never,
    (s: { hasTag(tag: string): boolean }) => s.hasTag('waitsForHuman'),
    {
      timeout: 20_000,
    },
  ).catch(() => {
    throw new CheckFailed('the loop never paused for a person');
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expectThat(actor.getSnapshot().hasTag('waitsForHuman'), 'the loop moved on without the person');
}

async function reviewGate(build: BuildMachine): Promise<string> {
  let attempts = 0;
  const machine = build({
    attempt: ({ feedback }) => {
      attempts += 1;
      return feedback?.message.includes('owner') ? 'plan: scope risks owner' : 'plan: scope risks';
    },
    validate: (draft) => checkSections(String(draft)),
    review: { afterFailedValidation: true },
    maxRetries: 3,
  });
  const actor = createActor(machine, { input: { input: 'task' } }).start();
  try {
    await expectWaitingForHuman(actor);
    expectEqual('attempts while paused', attempts, 1);
    actor.send({ type: 'review.retry', feedback: 'add an owner' });
    const outcome = (await withinRunTimeout(() => toPromise(actor))) as LoopOutcome;
    expectEqual('status', outcome.status, 'proceed');
    expectEqual('decisions', decisionsOf(outcome), ['review', 'proceed']);
  } finally {
    actor.stop();
  }
  return 'paused for review; the reviewer’s feedback fixed it';
}

async function clarificationGate(build: BuildMachine): Promise<string> {
  const machine = build({
    attempt: ({ answers }) =>
      answers.length === 0
        ? clarificationRequest({ question: 'Which quarter?', options: ['Q1', 'Q2'] })
        : `report for ${String(answers[0]?.answer)}`,
    validate: verdicts.valid,
  });
  const actor = createActor(machine, { input: { input: 'task' } }).start();
  try {
    await expectWaitingForHuman(actor);
    actor.send({ type: 'clarification.answer', answer: 'Q2' });
    const outcome = (await withinRunTimeout(() => toPromise(actor))) as LoopOutcome;
    expectEqual('status', outcome.status, 'proceed');
    expectEqual('candidate', outcome.status === 'proceed' && outcome.candidate, 'report for Q2');
  } finally {
    actor.stop();
  }
  return 'asked “Which quarter?”, waited, continued with the answer';
}
